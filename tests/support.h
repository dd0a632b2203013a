/* Shared helpers for the cmocka suites. */
#ifndef KF3DS_TEST_SUPPORT_H
#define KF3DS_TEST_SUPPORT_H
#include <stddef.h>

/* The public corpus folder (../shared/corpus, or $KF3DS_CORPUS), or NULL with
 * a message on stderr when it is absent, so suites skip cleanly. */
const char *support_corpus_dir(void);
/* Reads a whole file; NULL when it cannot. Free with free(). */
unsigned char *support_read_file(const char *path, size_t *size);
/* Path of the kf3ds command ($KF3DS_TOOL or build/kf3ds). */
const char *support_tool(void);
#endif
