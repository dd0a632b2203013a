#!/bin/sh
# The page in headless Chromium (docs/web.md, "Tests"; `make
# test-web-page`, and `make test` as the web-page check): builds the page
# (build/web/index.html) and the kf3ds command whose pictures and files are
# the reference, then runs tests/web-page/*.test.mjs with node --test. Without
# Node.js, Debian's chromium, puppeteer-core (make npm-tools) or clang's
# wasm32 target it says SKIPPED and why and exits 77 (counted as skipped).
build=${1:-build}
make=${MAKE:-make}
cc=${WASM_CC:-clang}
npm_dir=${NPM_DIR:-build/npm}
skip() {
  echo "web-page: SKIPPED: $*; nothing was tested"
  exit 77
}
command -v node >/dev/null || skip "no node (Node.js 20 or later drives the test)"
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
[ -n "$chromium" ] || skip "no chromium (apt-get install chromium)"
[ -d "$npm_dir/node_modules/puppeteer-core" ] ||
  skip "no puppeteer-core in $npm_dir (make npm-tools installs it)"
$make --no-print-directory -s wasm-deps ||
  skip "the Debian packages wasi-libc libclang-rt-14-dev-wasm32 lld are missing"
probe=$(mktemp -d) || exit 1
trap 'rm -rf "$probe"' EXIT
echo 'int kf3ds_probe(void) { return 1; }' > "$probe/p.c"
"$cc" --target=wasm32-wasi -nostartfiles -Wl,--no-entry -o "$probe/p.wasm" "$probe/p.c" \
  >/dev/null 2>&1 || skip "$cc cannot build for wasm32-wasi here"
$make --no-print-directory BUILD="$build" wasm-build || exit 1
$make --no-print-directory BUILD="$build" "$build/kf3ds" || exit 1
# The three.js example (three.test.mjs) where three is installed; without it
# that file's tests skip, saying so.
if [ -d "$npm_dir/node_modules/three" ]; then
  $make --no-print-directory BUILD="$build" NPM_DIR="$npm_dir" "$build/web/three.html" || exit 1
fi
KF3DS_TOOL="$build/kf3ds" KF3DS_WEB_DIR="$build/web" KF3DS_NPM_DIR="$npm_dir" \
  CHROMIUM="$chromium" node --test tests/web-page/
