# make bench-web (docs/web.md, "Speed"): kf3ds in headless Chromium against
# the native build on the same machine, in one run (dev/bench/bench_web.mjs):
# evaluation and evaluation + rendering of a frame, per frame, with the
# ratios, on data/arm.3ds and the corpus's sr-CITY.3DS and kjetilos-frigate.3ds
# (left out, saying so, when absent); then the page's time to show the 2.6 MB
# frigate. Informative only; needs Node.js, Debian's chromium and
# puppeteer-core (make npm-tools), else it says SKIPPED and why.

.PHONY: bench-web

bench-web: wasm-deps $(LIBS_ALL)
	@$(MAKE) --no-print-directory wasm-build $(BUILD)/bench-web-native
	@command -v node >/dev/null || { echo "bench-web: SKIPPED: no node (Node.js 20 or later)"; exit 0; }; \
	  node dev/bench/bench_web.mjs $(BUILD) $(NPM_DIR)

# The glue of the WebAssembly module (web/kf3ds_wasm.c) compiled natively
# with the library, so that both sides run the same calls.
$(BUILD)/bench-web-native: dev/bench/bench_web_native.c dev/bench/bench_common.h \
                           web/kf3ds_wasm.c $(MODULE_HDR) $(RENDER_HDR) $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ dev/bench/bench_web_native.c $(LIBS_ALL) $(LDLIBS)
