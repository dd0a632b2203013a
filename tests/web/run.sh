#!/bin/sh
# The web suite (docs/web.md): builds the WebAssembly module and the kf3ds
# command whose answers are the reference, then runs tests/web/*.test.mjs with
# node --test. Exit status 77 (tests/run-suites.sh counts it as skipped) with
# a line saying why when clang cannot build for wasm32-wasi or Node.js is
# missing: nothing was tested.
build=${1:-build}
make=${MAKE:-make}
if ! command -v node >/dev/null; then
  echo "web: SKIPPED: no node (Node.js 20 or later runs tests/web/); nothing was tested"
  exit 77
fi
if ! $make --no-print-directory BUILD="$build" wasm; then
  echo "web: SKIPPED: clang cannot build for wasm32-wasi here (needs the Debian packages" \
       "wasi-libc libclang-rt-14-dev-wasm32 lld); nothing was tested"
  exit 77
fi
$make --no-print-directory BUILD="$build" "$build/kf3ds" || exit 1
KF3DS_TOOL="$build/kf3ds" KF3DS_WEB_DIR="$build/web" node --test tests/web/
