# The three.js example (docs/web.md, "three.js"): examples/web/three.html and
# three.mjs bundled with three.js (npm "three" in $(NPM_DIR), which `make
# npm-tools` installs), web/kf3ds.mjs and kf3ds.wasm into one file that works
# opened from disk: build/web/three.html (tools/web_three_page.mjs, with the
# small bundler tools/esm_bundle.mjs).
#
#   make web-three   builds build/web/three.html and says how to open it

.PHONY: web-three

WEB_THREE_SRC := examples/web/three.html examples/web/three.mjs web/kf3ds.mjs \
                 tools/esm_bundle.mjs tools/web_three_page.mjs

web-three: wasm-deps
	@$(MAKE) --no-print-directory wasm-build $(WASM_DIR)/three.html
	@echo "open $(WASM_DIR)/three.html in a browser (from disk is fine), e.g. xdg-open $(WASM_DIR)/three.html"

$(WASM_DIR)/three.html: $(WEB_THREE_SRC) $(WASM_DIR)/kf3ds.wasm
	@command -v node >/dev/null || { echo "web-three: needs Node.js (apt-get install -y nodejs npm)" >&2; exit 1; }
	@[ -d $(NPM_DIR)/node_modules/three ] || $(MAKE) --no-print-directory npm-tools || \
	  { echo "web-three: needs three.js in $(NPM_DIR) (make npm-tools)" >&2; exit 1; }
	node tools/web_three_page.mjs $(WASM_DIR) $(NPM_DIR)
