/* Node.js checks run from a C suite (the scripts in tests/gltf/): the npm
 * folder, whether Node.js and the npm packages are there, and running a
 * script in the suite's temporary folder (support_tmpdir). */
#ifndef KF3DS_TEST_SUPPORT_NODE_H
#define KF3DS_TEST_SUPPORT_NODE_H
#include <stddef.h>

/* KF3DS_NPM, else build/npm (make npm-tools fills it). */
const char *support_npm_dir(void);
/* rel made absolute against the working folder (kept when it already is);
 * fails the test when it does not fit. */
void support_abs_path(char *buf, size_t cap, const char *rel);
/* 1 when node runs and the npm folder has gltf-validator and three; asked
 * once. Otherwise says once on stderr, as `SUITE: SKIPPED ...`, that the
 * suite's validator and three.js checks are skipped and why. */
int support_have_node_tools(const char *suite);
/* `node SCRIPT ARGS` run in the temporary folder with KF3DS_NPM absolute:
 * what it printed, stdout and stderr (free it), and its exit status in
 * *status (128 when it did not exit normally). */
char *support_run_node(int *status, const char *script, const char *args);

#endif
