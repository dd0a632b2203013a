/* What the core offers the library's other modules (the renderer, src/render/)
 * and white-box tests: the arena and allocator hooks, the math, the sort,
 * the value bounds and the vector helpers. Core files include the headers
 * they use directly; this one only gathers them (it declares nothing). */
#ifndef KF3DS_INTERNAL_H
#define KF3DS_INTERNAL_H
#include "arena.h"
#include "geometry.h"
#include "kmath.h"
#include "sort.h"
#include "value_range.h"
#endif
