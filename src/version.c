/* The version of the library that is linked, for comparison with the
 * header's KF3DS_VERSION_NUMBER. */
#include "kf3ds.h"

int kf3ds_version(void)
{
    return KF3DS_VERSION_NUMBER;
}

const char *kf3ds_version_string(void)
{
    return KF3DS_VERSION_STRING;
}
