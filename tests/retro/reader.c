/* The reader alone, for its code size and object-code checks (mk/retro.mk). */
#define KF3DS_KFB_IMPLEMENTATION
#define KF3DS_KFB_NO_FLOAT
#include "kf3ds_kfb.h"
