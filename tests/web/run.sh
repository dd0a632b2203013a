#!/bin/sh
# The web suite (docs/web.md, `make test-web`): builds the WebAssembly module
# and the kf3ds command whose answers are the reference, then runs
# tests/web/*.test.mjs with node --test. When this machine cannot run it (no
# Node.js, or clang cannot build for wasm32-wasi: the Debian packages
# wasi-libc libclang-rt-14-dev-wasm32 lld missing and not installable) it says
# SKIPPED and why, and exits with status 77 (tests/run-suites.sh counts it as
# skipped, not passed). A module that does not build is a failure.
build=${1:-build}
make=${MAKE:-make}
cc=${WASM_CC:-clang}
skip() {
  echo "web: SKIPPED: $*; nothing was tested"
  exit 77
}
command -v node >/dev/null || skip "no node (Node.js 20 or later runs tests/web/)"
$make --no-print-directory -s wasm-deps ||
  skip "the Debian packages wasi-libc libclang-rt-14-dev-wasm32 lld are missing"
probe=$(mktemp -d) || exit 1
trap 'rm -rf "$probe"' EXIT
echo 'int kf3ds_probe(void) { return 1; }' > "$probe/p.c"
"$cc" --target=wasm32-wasi -nostartfiles -Wl,--no-entry -o "$probe/p.wasm" "$probe/p.c" \
  >/dev/null 2>&1 || skip "$cc cannot build for wasm32-wasi here"
$make --no-print-directory BUILD="$build" wasm-build || exit 1
$make --no-print-directory BUILD="$build" "$build/kf3ds" || exit 1
KF3DS_TOOL="$build/kf3ds" KF3DS_WEB_DIR="$build/web" node --test tests/web/
