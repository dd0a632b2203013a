# kf3ds in the browser (docs/web.md): the core and the renderer compiled to
# WebAssembly (with the glTF and bake modules, src/gltf/ and src/bake/) with clang's wasm32-wasi target and wasi-libc, but calling no
# WASI function, so the module imports nothing; web/kf3ds.mjs loads it.
#
#   make wasm       build/web/kf3ds.wasm, kf3ds.mjs, kf3ds.d.ts (prints the size) and
#                   the page build/web/index.html with all of it inside
#   make web        the same, then says how to open the page
#   make test-web-page  tests/web-page/: the page in headless Chromium
#   make test-web   tests/web/*.test.mjs with node --test: every answer equals
#                   build/kf3ds's (eval bit for bit, render pixel for pixel)
#
# The core's stdio wrappers (load_file.c, save_file.c) stay out; web/kf3ds_wasm.c
# is the glue (web/kfw_cel.c that of tools/front/cel_decode.c), compiled here only.

.PHONY: wasm wasm-build wasm-deps test-web web test-web-page

WASM_DIR     := $(BUILD)/web
WASM_CC      ?= clang
WASM_TARGET  := --target=wasm32-wasi
WASM_OPT     ?= -O2
# The export, bake and static modules, the writer (save, layout), the
# messages, the glue and the renderer's overlays (a few lines and letters a
# frame) run once per call or per frame, not per node or pixel: compiled
# for size, to keep the module within its budget (docs/web.md, "Speed").
# clang has no FMA or fast-math at either level for wasm32, so their output
# stays byte for byte the command's (tests/web compare them).
WASM_MODULE_OPT ?= -Os
$(WASM_DIR)/obj/gltf/%.o $(WASM_DIR)/obj/bake/%.o $(WASM_DIR)/obj/static/%.o \
  $(WASM_DIR)/obj/save.o $(WASM_DIR)/obj/layout.o $(WASM_DIR)/obj/write_chunk.o \
  $(WASM_DIR)/obj/diag.o $(WASM_DIR)/obj/format.o \
  $(WASM_DIR)/obj/kf3ds_wasm.o $(WASM_DIR)/obj/render/overlays.o \
  $(WASM_DIR)/obj/render/motion_paths.o $(WASM_DIR)/obj/render/view_steer.o \
  $(WASM_DIR)/obj/render/raster_font.o: WASM_OPT = $(WASM_MODULE_OPT)
# memcpy/memset as single instructions (docs/web.md, "Speed"): the renderer
# clears its colour and depth buffers every frame, and wasi-libc's memset is a loop.
WASM_FEATURES ?= -mbulk-memory
WASM_DEPS    := wasi-libc libclang-rt-14-dev-wasm32 lld
WASM_CFLAGS   = $(WASM_TARGET) $(WASM_OPT) $(WASM_FEATURES) $(WARN) -Iinclude $(LIB_CFLAGS) -fvisibility=hidden
WASM_LIB_SRC := $(filter-out src/load_file.c src/save_file.c,$(LIB_SRC)) $(RENDER_SRC) \
                $(MODULE_SRC)
WASM_OBJ     := $(WASM_LIB_SRC:src/%.c=$(WASM_DIR)/obj/%.o) $(WASM_DIR)/obj/kf3ds_wasm.o \
                $(WASM_DIR)/obj/wasi_stubs.o $(WASM_DIR)/obj/kfw_cel.o $(WASM_DIR)/obj/front/cel_decode.o
WASM_BUDGET  := 153600
# No start files, no entry point: a library module. Its exports are the
# kfw_ functions (export_name in the glue) and the memory. The stack (1 MiB;
# wasm-ld's default is 64 KiB) comes first in memory, so that overflowing it
# traps instead of running into the static data.
WASM_LDFLAGS := -nostartfiles -Wl,--no-entry -Wl,--gc-sections -Wl,--strip-all \
                -Wl,--stack-first -Wl,-z,stack-size=1048576

wasm: wasm-deps
	@$(MAKE) --no-print-directory wasm-build

wasm-deps:
	@sh tools/ensure-deps.sh $(WASM_DEPS)

wasm-build: $(WASM_DIR)/kf3ds.wasm $(WASM_DIR)/kf3ds.mjs $(WASM_DIR)/kf3ds.d.ts $(WASM_DIR)/index.html
	@raw=$$(wc -c < $(WASM_DIR)/kf3ds.wasm); gz=$$(gzip -9 -c $(WASM_DIR)/kf3ds.wasm | wc -c); \
	  echo "$(WASM_DIR)/kf3ds.wasm: $$raw bytes, $$gz after gzip -9 (budget $(WASM_BUDGET))"; \
	  if [ $$gz -gt $(WASM_BUDGET) ]; then echo "kf3ds.wasm is over its size budget" >&2; exit 1; fi

$(WASM_DIR)/obj/render/%.o: src/render/%.c $(RENDER_HDR) mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c99 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/gltf/%.o: src/gltf/%.c $(MODULE_HDR) mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c99 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/bake/%.o: src/bake/%.c $(MODULE_HDR) mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c99 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/%.o: src/%.c $(LIB_HDR) mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c99 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/kf3ds_wasm.o: web/kf3ds_wasm.c $(RENDER_HDR) $(MODULE_HDR) mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c11 $(WASM_CFLAGS) -c $< -o $@

# The Animator CEL/PIC decoder the command uses (tools/front/, shared by the
# front ends) and its glue, for the maps browsers cannot decode.
$(WASM_DIR)/obj/kfw_cel.o: web/kfw_cel.c tools/front/cel_decode.h mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c11 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/obj/front/cel_decode.o: tools/front/cel_decode.c tools/front/cel_decode.h mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c11 $(WASM_CFLAGS) -c $< -o $@

# (snprintf, which the glTF writer uses, names three WASI calls; web/wasi_stubs.c
# defines them so that the module still imports nothing)
$(WASM_DIR)/obj/wasi_stubs.o: web/wasi_stubs.c mk/wasm.mk
	@mkdir -p $(@D)
	$(WASM_CC) -std=c11 $(WASM_CFLAGS) -c $< -o $@

$(WASM_DIR)/kf3ds.wasm: $(WASM_OBJ)
	$(WASM_CC) $(WASM_TARGET) $(WASM_LDFLAGS) -o $@ $(WASM_OBJ) -lm

$(WASM_DIR)/kf3ds.mjs: web/kf3ds.mjs
	@mkdir -p $(@D)
	cp $< $@

# The page (web/index.html, web/viewer.mjs, web/viewer.css) as one file with
# the module inside: it then works from file:// too (tools/web_page.sh).
$(WASM_DIR)/index.html: web/index.html web/viewer.css web/viewer.mjs $(WASM_DIR)/kf3ds.mjs \
                        $(WASM_DIR)/kf3ds.wasm tools/web_page.sh
	@sh tools/web_page.sh $(WASM_DIR)

web: wasm
	@echo "open $(WASM_DIR)/index.html in a browser (from disk is fine), e.g. xdg-open $(WASM_DIR)/index.html"

$(WASM_DIR)/kf3ds.d.ts: web/kf3ds.d.ts
	@mkdir -p $(@D)
	cp $< $@

# The suite needs build/kf3ds (its answers are the reference) and the module;
# without clang's wasm32 target (no wasi-libc, no wasm-ld) or Node.js it says
# SKIPPED and why (tests/web/run.sh; `make test` counts it as skipped).
test-web:
	@sh tests/web/run.sh $(BUILD); st=$$?; [ $$st = 77 ] && exit 0; exit $$st

# The page in headless Chromium (tests/web-page/run.sh): skipped, saying why,
# without Debian's chromium or puppeteer-core (make npm-tools puts it in
# build/npm).
test-web-page:
	@sh tests/web-page/run.sh $(BUILD); st=$$?; [ $$st = 77 ] && exit 0; exit $$st
