/* The static OBJ/STL export of the command (cmd_export_static.c), shared by
 * kf3ds export -o OUT.obj|OUT.stl and kf3ds convert --to obj|stl. */
#ifndef KF3DS_CMD_STATIC_H
#define KF3DS_CMD_STATIC_H
#include "cmd.h"

typedef struct cli_static_opts {
    const char *file, *out;   /* OUT ends in .obj or .stl */
    int stl;
    int has_frame;            /* --frame F; else the segment's start */
    double frame;
    int no_ease, quiet;
} cli_static_opts;

/* 1 when OUT names an OBJ or STL file (by its extension, any case); *stl says
 * which. */
int cli_static_format(const char *out, int *stl);
/* Loads FILE, writes OUT (and for OBJ the .mtl beside it, named as OUT with
 * .mtl), prints the summary line unless quiet and the load's diagnostics;
 * returns the exit status. *bytes (may be NULL) gets the bytes written. */
int cli_static_export(const cli_static_opts *o, size_t *bytes);

#endif
