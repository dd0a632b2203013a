/* .kfb files in `kf3ds info` and `kf3ds dump` (docs/kfb.md), and the one
 * compiled copy of the reader, include/kf3ds_kfb.h, for the command. */
#include "cmd.h"
#define KF3DS_KFB_IMPLEMENTATION
#include "kf3ds_kfb.h"
