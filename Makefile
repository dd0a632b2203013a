# kf3ds — see README.md. `make` builds into build/, `make test` runs every test
# twice: a plain build and an ASan+UBSan build (build/san/).
CC      ?= cc
BUILD   ?= build
SAN     ?=
PREFIX  ?= /usr/local
WARN    := -Wall -Wextra -Wpedantic -Werror
CFLAGS  ?= -O3 -g
# The core and the renderer are C99, the tools and tests C11 (each file sets
# its standard below); CFLAGS given on the command line add to these.
override CFLAGS += $(WARN) -Iinclude
LIB_STD  := -std=c99
TOOL_STD := -std=c11
ifeq ($(SAN),1)
override CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS  += -lm
# The library never reads errno or the floating-point exception flags; saying
# so lets the compiler vectorise the squad batch (src/track_eval.h). Results
# are the same without these flags, only slower. Only the public kf3ds_ names
# are visible outside the shared library (KF3DS_API in the headers).
LIB_CFLAGS := -fno-math-errno -fno-trapping-math
LIB_VISIBILITY := -fvisibility=hidden
# Front ends only: the viewer links SDL2, rendering to PNG libpng, decoding
# texture maps SDL2_image, plotting cairo.
FRONT_PKGS   = sdl2 SDL2_image libpng cairo fontconfig
FRONT_CFLAGS = $(shell pkg-config --cflags $(FRONT_PKGS) 2>/dev/null)
FRONT_LIBS   = $(shell pkg-config --libs $(FRONT_PKGS) 2>/dev/null || \
                 echo -lSDL2 -lSDL2_image -lpng -lcairo -lfontconfig)

# The version lives in include/kf3ds.h only.
version_part = $(shell sed -n 's/^\#define KF3DS_VERSION_$(1) \([0-9][0-9]*\).*/\1/p' include/kf3ds.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION       := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME        := libkf3ds.so.$(VERSION_MAJOR)

# The core (reader, evaluator): src/*.c. The renderer: src/render/*.c, its own
# archive on top of the core.
LIB_SRC    := $(sort $(wildcard src/*.c))
LIB_OBJ    := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
RENDER_SRC := $(sort $(wildcard src/render/*.c))
RENDER_OBJ := $(RENDER_SRC:src/%.c=$(BUILD)/obj/%.o)
LIB_HDR    := include/kf3ds.h include/kf3ds_chunks.h $(wildcard src/*.h)
# The output modules (docs/architecture.md): glTF export, src/gltf/, and bake,
# src/bake/. They sit on the core's public API, write into memory through its
# allocator hooks and use nothing but libc; they go into libkf3ds.a and
# libkf3ds.so beside the core (not into the freestanding or retro builds).
MODULE_SRC := $(sort $(wildcard src/gltf/*.c src/bake/*.c src/static/*.c))
MODULE_OBJ := $(MODULE_SRC:src/%.c=$(BUILD)/obj/%.o)
MODULE_HDR := $(LIB_HDR) $(wildcard include/kf3ds_gltf.h include/kf3ds_bake.h include/kf3ds_kfb.h \
              include/kf3ds_static.h src/gltf/*.h src/bake/*.h src/static/*.h)
RENDER_HDR := $(LIB_HDR) include/kf3ds_render.h $(wildcard src/render/*.h)
CMD_SRC   := tools/cmd/kf3ds.c tools/cmd/cli_options.c tools/front/cel_decode.c $(sort $(wildcard tools/cmd/cmd_*.c))
GEN_SRC   := $(sort $(wildcard dev/mk3ds/mk3ds*.c))
# The folder says what a suite needs (see "Tests" below): tests/core/ the core
# library alone, tests/front/ more than that.
CORE_TEST_SRC  := $(sort $(wildcard tests/core/test_*.c))
FRONT_TEST_SRC := $(sort $(wildcard tests/front/test_*.c))
TEST_SRC  := $(CORE_TEST_SRC) $(FRONT_TEST_SRC)
CORE_TESTS  := $(CORE_TEST_SRC:tests/core/%.c=$(BUILD)/tests/%)
FRONT_TESTS := $(FRONT_TEST_SRC:tests/front/%.c=$(BUILD)/tests/%)
TEST_BIN  := $(CORE_TESTS) $(FRONT_TESTS)
TEST_SUPPORT_SRC := $(sort $(wildcard tests/support*.c))
TEST_SUPPORT_OBJ := $(patsubst %.c,$(BUILD)/tests/obj/%.o,$(notdir $(TEST_SUPPORT_SRC)))
TEST_SUPPORT := $(BUILD)/tests/libsupport.a
DATA      := data/orrery.3ds data/arm.3ds data/edge.3ds data/textured.3ds
MANPAGE   := docs/kf3ds.1

.PHONY: default all lib test check check-core run images bench bench-callgrind data install \
        uninstall check-install clean \
        deps-build deps-test deps-bench c99 npm-tools export-image
# Plain `make`: the Debian packages the build needs (installed as root, or one
# line that says what to type), then everything.
default: deps-build
	@$(MAKE) all

all: $(BUILD)/libkf3ds.a $(BUILD)/libkf3ds.so $(BUILD)/libkf3ds_render.a $(BUILD)/libkf3ds_render.so \
     $(BUILD)/kf3ds \
     $(BUILD)/kf3ds-bench $(BUILD)/mk3ds $(BUILD)/play $(BUILD)/kfb-eval $(BUILD)/kfb-print \
     $(BUILD)/save

# The core alone, with nothing but a C compiler (no SDL2, libpng, pkg-config).
lib: $(BUILD)/libkf3ds.a

$(BUILD)/play: examples/play.c $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkf3ds.a $(LDLIBS)

# The baked-file reader's example (docs/kfb.md): include/kf3ds_kfb.h alone, no library.
$(BUILD)/kfb-eval: examples/kfb_eval.c include/kf3ds_kfb.h
	@mkdir -p $(@D)
	$(CC) -std=c99 $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/kfb-print: examples/kfb_print.c include/kf3ds_kfb.h
	@mkdir -p $(@D)
	$(CC) -std=c99 $(CFLAGS) $(LDFLAGS) -o $@ $<

$(BUILD)/save: examples/save.c $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkf3ds.a $(LDLIBS)

$(BUILD)/obj/render/%.o: src/render/%.c $(RENDER_HDR) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_STD) $(CFLAGS) $(LIB_CFLAGS) $(LIB_VISIBILITY) -fPIC -c $< -o $@

$(BUILD)/obj/gltf/%.o: src/gltf/%.c $(MODULE_HDR) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_STD) $(CFLAGS) $(LIB_CFLAGS) $(LIB_VISIBILITY) -fPIC -c $< -o $@

$(BUILD)/obj/bake/%.o: src/bake/%.c $(MODULE_HDR) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_STD) $(CFLAGS) $(LIB_CFLAGS) $(LIB_VISIBILITY) -fPIC -c $< -o $@

# The static OBJ/STL export (include/kf3ds_static.h), a module like glTF's.
$(BUILD)/obj/static/%.o: src/static/%.c $(MODULE_HDR) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_STD) $(CFLAGS) $(LIB_CFLAGS) $(LIB_VISIBILITY) -fPIC -c $< -o $@

$(BUILD)/obj/%.o: src/%.c $(LIB_HDR) Makefile
	@mkdir -p $(@D)
	$(CC) $(LIB_STD) $(CFLAGS) $(LIB_CFLAGS) $(LIB_VISIBILITY) -fPIC -c $< -o $@

$(BUILD)/libkf3ds.a: $(LIB_OBJ) $(MODULE_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# The renderer's archive also holds the few core objects whose internal
# (hidden) functions it calls, so that it links beside the shared core too;
# beside the static core the linker takes each object once. The check fails
# the build when the renderer comes to need another one.
RENDER_CORE_OBJ := $(addprefix $(BUILD)/obj/,arena.o alloc_default.o sort.o kmath.o)
$(BUILD)/libkf3ds_render.a: $(RENDER_OBJ) $(RENDER_CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^
	@missing=$$(nm $@ | awk '$$1 == "U" && $$2 ~ /^kf3ds__/ { u[$$2] = 1 } \
	  NF >= 3 && $$2 ~ /^[TDRB]$$/ && $$3 ~ /^kf3ds__/ { d[$$3] = 1 } \
	  END { for (s in u) if (!(s in d)) print s }'); \
	if [ -n "$$missing" ]; then echo "$@: needs core internals it does not hold:" $$missing >&2; \
	  rm -f $@; exit 1; fi

# libkf3ds.so -> libkf3ds.so.MAJOR (the SONAME) -> libkf3ds.so.VERSION
$(BUILD)/libkf3ds.so.$(VERSION): $(LIB_OBJ) $(MODULE_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^ -lm

$(BUILD)/libkf3ds.so: $(BUILD)/libkf3ds.so.$(VERSION)
	ln -sf libkf3ds.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $@

# The renderer's shared library carries private copies of the core objects it
# uses (--exclude-libs keeps them local), so it exports only its own kf3ds_
# functions and works beside either form of the core.
RENDER_SONAME := libkf3ds_render.so.$(VERSION_MAJOR)
$(BUILD)/libkf3ds_render.so.$(VERSION): $(RENDER_OBJ) $(BUILD)/libkf3ds.a $(BUILD)/libkf3ds_render.a
	$(CC) -shared -Wl,-soname,$(RENDER_SONAME) -Wl,--exclude-libs,ALL $(LDFLAGS) -o $@ \
	  $(RENDER_OBJ) $(BUILD)/libkf3ds.a -lm

$(BUILD)/libkf3ds_render.so: $(BUILD)/libkf3ds_render.so.$(VERSION)
	ln -sf libkf3ds_render.so.$(VERSION) $(BUILD)/$(RENDER_SONAME)
	ln -sf $(RENDER_SONAME) $@

LIBS_ALL := $(BUILD)/libkf3ds_render.a $(BUILD)/libkf3ds.a

$(BUILD)/kf3ds: $(CMD_SRC) $(wildcard tools/cmd/*.h) $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(FRONT_CFLAGS) $(LDFLAGS) -o $@ $(CMD_SRC) $(LIBS_ALL) \
	  $(FRONT_LIBS) $(LDLIBS)

$(BUILD)/kf3ds-bench: dev/bench/bench.c dev/bench/bench_common.h dev/bench/bench_render_common.h $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ dev/bench/bench.c $(LIBS_ALL) $(LDLIBS)

$(BUILD)/mk3ds: $(GEN_SRC) $(wildcard dev/mk3ds/mk3ds*.h) $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ $(GEN_SRC) $(BUILD)/libkf3ds.a $(LDLIBS)

# Tests: every tests/core/test_*.c and tests/front/test_*.c is one cmocka
# program linked with the support archive (tests/support*.c, built once); the
# programs go to $(BUILD)/tests/. A suite in tests/core/ is one of the core's
# tests: linked with libkf3ds.a alone, so that it cannot lean on anything else.
# A suite in tests/front/ may use more: the renderer, the command (through
# KF3DS_TOOL), lib3ds and mk3ds (test_diff_*), SDL2 and libpng (test_png_*), a
# unit of the command (UNIT_SRC below).
TEST_HDR     := $(wildcard tests/support*.h) $(LIB_HDR) include/kf3ds_render.h include/kf3ds_bake.h \
                include/kf3ds_static.h

$(BUILD)/tests/obj/%.o: tests/%.c $(TEST_HDR)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) -Itools/cmd -Itools/front -Itests -c $< -o $@

$(TEST_SUPPORT): $(TEST_SUPPORT_OBJ)
	rm -f $@ && ar rcs $@ $^

$(CORE_TESTS): $(BUILD)/tests/%: tests/core/%.c $(TEST_SUPPORT) $(TEST_HDR) $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(TEST_SUPPORT) \
	  $(BUILD)/libkf3ds.a -lcmocka $(LDLIBS)

# A suite of one unit of the command links that unit's sources (UNIT_SRC).
$(BUILD)/tests/test_cli_options: UNIT_SRC = tools/cmd/cli_options.c
$(BUILD)/tests/test_cli_options: tools/cmd/cli_options.c tools/cmd/cli_options.h
$(BUILD)/tests/test_cel_decode: UNIT_SRC = tools/front/cel_decode.c
$(BUILD)/tests/test_cel_decode: tools/front/cel_decode.c tools/front/cel_decode.h

$(FRONT_TESTS): $(BUILD)/tests/%: tests/front/%.c $(TEST_SUPPORT) $(TEST_HDR) $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) -Itools/cmd -Itools/front -Itests $(FRONT_CFLAGS) $(LDFLAGS) -o $@ $< $(UNIT_SRC) \
	  $(TEST_SUPPORT) $(LIBS_ALL) -lcmocka $(if $(findstring test_diff,$*),-l3ds) \
	  $(if $(findstring test_png,$*),$(FRONT_LIBS)) $(LDLIBS)

check: $(TEST_BIN) all
	@KF3DS_TOOL=$(BUILD)/kf3ds sh tests/run-suites.sh $(TEST_BIN) \
	  --check examples/play "$(BUILD)/play data/arm.3ds > /dev/null" \
	  --check examples/save "$(BUILD)/save $(BUILD)/box.3ds data/arm.3ds $(BUILD)/arm-copy.3ds && \
	    $(BUILD)/kf3ds info $(BUILD)/box.3ds > /dev/null && cmp data/arm.3ds $(BUILD)/arm-copy.3ds" \
	  --check "man page" "sh tests/check_manpage.sh $(BUILD)/kf3ds $(MANPAGE)" \
	  --check "static export" "sh tests/check_static_export.sh $(BUILD)/kf3ds" \
	  --check convert "sh tests/check_convert.sh $(BUILD)/kf3ds" \
	  --check thumbnailer "sh tests/check_thumbnailer.sh $(BUILD)/kf3ds" \
	  --check "include loops" "command -v $(PYTHON) >/dev/null || \
	    { echo 'include loops: SKIPPED: no $(PYTHON)'; exit 77; }; $(PYTHON) tests/check_include_loops.py" \
	  --check "doc links" "command -v $(PYTHON) >/dev/null || \
	    { echo 'doc links: SKIPPED: no $(PYTHON)'; exit 77; }; $(PYTHON) tests/check_doc_links.py" \
	  --check install "$(MAKE) -s --no-print-directory check-install" \
	  --check python "$(PYTHON) -c 'import numpy, pytest' 2>/dev/null || \
	    { echo 'python: SKIPPED: $(PYTHON) has no numpy or pytest (make deps-python)'; exit 77; }; \
	    $(MAKE) -s --no-print-directory test-python" \
	  $(if $(filter 1,$(SAN)),,$(BLENDER_CHECK))

# Blender runs in the plain pass only: the sanitizer pass reaches the same
# library through the Python suite, and Blender under ASan costs minutes.
BLENDER_CHECK = --check blender "command -v $(BLENDER) >/dev/null 2>&1 || \
	    { echo 'blender: SKIPPED: no $(BLENDER) command (apt-get install blender, or make deps-blender)'; exit 77; }; \
	    $(MAKE) -s --no-print-directory test-blender" \
	  --check "blender gltf" "$(BLENDER_GLTF_RUN)"

# The core's own tests with nothing but a C compiler and cmocka: no SDL2,
# libpng, lib3ds, pkg-config, the renderer or the command.
check-core: $(CORE_TESTS) $(BUILD)/play
	@sh tests/run-suites.sh $(CORE_TESTS) \
	  --check examples/play "$(BUILD)/play data/arm.3ds > /dev/null"

# The Debian packages each job needs, asked for in one go. Node.js and npm
# only where npm is missing: NodeSource's nodejs carries its own npm and
# conflicts with Debian's.
BUILD_DEPS := make gcc libc6-dev pkg-config libsdl2-dev libpng-dev libsdl2-image-dev libcairo2-dev
TEST_DEPS  := libcmocka-dev lib3ds-dev clang $(if $(shell command -v npm),,nodejs npm)
deps-test:
	@sh tools/ensure-deps.sh $(BUILD_DEPS) $(TEST_DEPS)

# Both passes, the C99 check and the web suite (mk/wasm.mk, skipped where
# clang cannot target wasm32) run even after a failure; the sanitizer pass
# reads every 4th corpus file (KF3DS_CORPUS_SAMPLE, tests/support.c) and
# leaves Blender out, to keep CI within its time; the last line adds
# them up ("test: N passed, N failed, N skipped"). The glTF checkers come from
# npm when they are not there yet; offline, test_export says it skips them.
TEST_COUNTS = $(abspath $(BUILD))/test-counts
test: deps-test
	@mkdir -p $(BUILD) && rm -f $(TEST_COUNTS)
	@[ -d $(NPM_DIR)/node_modules/three ] && [ -d $(NPM_DIR)/node_modules/puppeteer-core ] || \
	  $(MAKE) npm-tools || \
	  echo "note: make npm-tools failed: test_export skips the validator and three.js checks, web-page the Chromium test"
	@st=0; \
	$(MAKE) check KF3DS_TEST_COUNTS=$(TEST_COUNTS) || st=1; \
	KF3DS_CORPUS_SAMPLE=4 $(MAKE) check BUILD=build/san SAN=1 CFLAGS="-O1 -g" KF3DS_TEST_COUNTS=$(TEST_COUNTS) || st=1; \
	if $(MAKE) c99; then echo "1 0 0" >> $(TEST_COUNTS); else echo "0 1 0" >> $(TEST_COUNTS); st=1; fi; \
	KF3DS_TEST_COUNTS=$(TEST_COUNTS) sh tests/run-suites.sh --check web "sh tests/web/run.sh $(BUILD)" || st=1; \
	KF3DS_TEST_COUNTS=$(TEST_COUNTS) sh tests/run-suites.sh --check web-page "NPM_DIR=$(NPM_DIR) sh tests/web-page/run.sh $(BUILD)" || st=1; \
	sh tests/sum-counts.sh $(TEST_COUNTS) || st=1; exit $$st

# The core must also compile as C99, and everything as C11, with gcc and clang.
c99:
	@for cc in gcc clang; do command -v $$cc >/dev/null || continue; \
	  for f in $(LIB_SRC) $(RENDER_SRC) $(MODULE_SRC); do $$cc -std=c99 $(WARN) -Iinclude -fsyntax-only $$f || exit 1; done; \
	  for f in $(CMD_SRC) $(GEN_SRC) dev/bench/bench.c $(TEST_SRC) $(TEST_SUPPORT_SRC) examples/play.c examples/save.c; do \
	    $$cc -std=c11 $(WARN) -Iinclude -Itools/cmd -Itools/front -Itests $(FRONT_CFLAGS) -fsyntax-only $$f || exit 1; done; \
	  echo "c99 core and c11 tools/tests ok with $$cc"; done

# The glTF checkers of test_export (the Khronos validator, three.js) and the
# driver of the page's Chromium test (puppeteer-core), from npm into
# build/npm; without them those checks are skipped.
NPM_DIR      ?= build/npm
NPM_PACKAGES := gltf-validator@2.0.0-dev.3.10 three@0.187.0 puppeteer-core@24.9.0
npm-tools:
	@command -v npm >/dev/null || { echo "npm-tools: needs Node.js and npm" \
	  "(apt-get install -y nodejs npm)" >&2; exit 1; }
	npm install --prefix $(NPM_DIR) --no-audit --no-fund --loglevel=error $(NPM_PACKAGES)

deps-build:
	@sh tools/ensure-deps.sh $(BUILD_DEPS)

# The main job: the bundled arm's node tree, then the animation playing in the
# viewer — or, without a display, its contact sheet written to a PNG.
run: deps-build
	$(MAKE) all
	$(BUILD)/kf3ds info data/arm.3ds
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  echo "$(BUILD)/kf3ds view data/arm.3ds   (press ? for the keys, q to quit)"; \
	  $(BUILD)/kf3ds view data/arm.3ds; \
	else \
	  $(BUILD)/kf3ds render data/arm.3ds --sheet 4x3 --hierarchy -o $(BUILD)/arm-sheet.png && \
	  echo "no display here: wrote the contact sheet $(BUILD)/arm-sheet.png" \
	       "(where there is a display: $(BUILD)/kf3ds view data/arm.3ds)"; \
	fi

# The pictures in the README, made by the project's own tools.
images: all
	$(BUILD)/kf3ds render data/arm.3ds --sheet 4x2 --hierarchy -q -o docs/img/arm-sheet.png
	SDL_VIDEODRIVER=dummy $(BUILD)/kf3ds view data/arm.3ds --size 480x360 --paused --frame 30 \
	  --hierarchy --exit-after-frames 1 --screenshot docs/img/viewer.png
	SDL_VIDEODRIVER=dummy $(BUILD)/kf3ds view data/arm.3ds --size 480x360 --paused --frame 30 \
	  --camera Cam01 --exit-after-frames 1 --screenshot docs/img/viewer-cam01.png
	$(BUILD)/kf3ds render data/textured.3ds --camera Cam01 --size 480x360 --frame 8 -q \
	  -o docs/img/textured.png
	$(BUILD)/kf3ds render data/textured.3ds --sheet 4x2 -q -o docs/img/textured-sheet.png
	$(BUILD)/kf3ds plot data/arm.3ds --node UpperArm --track rot --keys -o docs/img/plot-arm.png

# The README's picture of an export as another program shows it: Blender
# (Debian's blender and python3-numpy) imports the glTF and renders frame 120.
CORPUS ?= $(if $(KF3DS_CORPUS),$(KF3DS_CORPUS),../shared/corpus)
export-image: all
	$(BUILD)/kf3ds export $(CORPUS)/blitz3d-mak_robotic.3DS -o $(BUILD)/mak_robotic.glb
	blender -b --python tools/blender_gltf.py -- $(BUILD)/mak_robotic.glb \
	  $(CORPUS)/blitz3d-mak_robotic.3DS $(BUILD)/kf3ds --frames 0,120,415 \
	  --render 120 $(CURDIR)/docs/img/export-blender.png

data: $(BUILD)/mk3ds
	$(BUILD)/mk3ds samples data

bench: all deps-bench
	$(MAKE) $(BUILD)/bench-lib3ds
	@if pkg-config --exists osmesa; then $(MAKE) $(BUILD)/bench-osmesa; \
	else echo "bench: no libosmesa6-dev: the rendering comparison with Mesa is left out"; fi
	sh dev/bench/bench.sh $(BUILD)

# Instructions per node evaluation and per loaded byte (callgrind), on the
# files `make bench` generated; BENCH_CG_LIB3DS=1 counts lib3ds's too (slow).
bench-callgrind: all
	$(MAKE) $(BUILD)/bench-lib3ds
	@sh tools/ensure-deps.sh valgrind
	sh dev/bench/bench_callgrind.sh $(BUILD)

deps-bench:
	@sh tools/ensure-deps.sh lib3ds-dev
	@sh tools/ensure-deps.sh libosmesa6-dev || true

# Mesa's OSMesa (llvmpipe), the rendering comparison of make bench; built only
# where libosmesa6-dev is installed.
$(BUILD)/bench-osmesa: dev/bench/bench_osmesa.c dev/bench/bench_common.h dev/bench/bench_render_common.h \
                       $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ dev/bench/bench_osmesa.c $(LIBS_ALL) \
	  $$(pkg-config --libs osmesa) $(LDLIBS)

$(BUILD)/bench-lib3ds: dev/bench/bench_lib3ds.c dev/bench/bench_common.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -std=c11 -Wall -Wextra -o $@ $< -l3ds -lm

# `make install` puts these files, each under $(DESTDIR)$(PREFIX); `make
# uninstall` removes exactly them. The .pc files name PREFIX, not DESTDIR: a
# staged tree is built against with PKG_CONFIG_SYSROOT_DIR=$(DESTDIR) (README,
# "Building and linking"; tests/check_install.sh does it).
INSTALL_HDR := include/kf3ds.h include/kf3ds_chunks.h include/kf3ds_render.h include/kf3ds_kfb.h \
               $(wildcard include/kf3ds_gltf.h include/kf3ds_bake.h include/kf3ds_static.h)
INSTALLED := $(INSTALL_HDR) \
             lib/libkf3ds.a lib/libkf3ds_render.a \
             lib/libkf3ds.so.$(VERSION) lib/$(SONAME) lib/libkf3ds.so \
             lib/libkf3ds_render.so.$(VERSION) lib/$(RENDER_SONAME) lib/libkf3ds_render.so \
             bin/kf3ds share/man/man1/kf3ds.1 lib/pkgconfig/kf3ds.pc lib/pkgconfig/kf3ds-render.pc \
             share/thumbnailers/kf3ds.thumbnailer share/mime/packages/kf3ds.xml
INSTALL_DIRS := lib/pkgconfig share/man/man1 share/man share/thumbnailers share/mime/packages \
                share/mime share include lib bin
install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 $(INSTALL_HDR) $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libkf3ds.a $(BUILD)/libkf3ds_render.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libkf3ds.so.$(VERSION) $(BUILD)/libkf3ds_render.so.$(VERSION) \
	  $(DESTDIR)$(PREFIX)/lib/
	ln -sf libkf3ds.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libkf3ds.so
	ln -sf libkf3ds_render.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(RENDER_SONAME)
	ln -sf $(RENDER_SONAME) $(DESTDIR)$(PREFIX)/lib/libkf3ds_render.so
	install -m 755 $(BUILD)/kf3ds $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/thumbnailers $(DESTDIR)$(PREFIX)/share/mime/packages
	sed -e 's|@PREFIX@|$(PREFIX)|' tools/kf3ds.thumbnailer.in \
	  > $(DESTDIR)$(PREFIX)/share/thumbnailers/kf3ds.thumbnailer
	install -m 644 tools/kf3ds-mime.xml $(DESTDIR)$(PREFIX)/share/mime/packages/kf3ds.xml
	$(if $(wildcard $(MANPAGE)),install -m 644 $(MANPAGE) $(DESTDIR)$(PREFIX)/share/man/man1/)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' kf3ds.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/kf3ds.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' kf3ds-render.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/kf3ds-render.pc

# Removes the files install put there (give the same PREFIX and DESTDIR);
# with DESTDIR, also the folders of the staged tree left empty (without it
# the system's folders stay, even empty).
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))
	@if [ -n '$(DESTDIR)' ]; then \
	  for d in $(INSTALL_DIRS); do rmdir '$(DESTDIR)$(PREFIX)'/$$d 2>/dev/null; done; \
	  d='$(DESTDIR)$(PREFIX)'; stop='$(DESTDIR)'; \
	  while [ "$${d%/}" != "$${stop%/}" ] && rmdir "$$d" 2>/dev/null; do d=$${d%/*}; done; \
	fi; true

# make install into a temporary DESTDIR, examples/play.c built against the
# staged tree through pkg-config and run, make uninstall: nothing may be left.
check-install: all
	@sh tests/check_install.sh '$(BUILD)' '$(CC)' '$(LDFLAGS)'

clean:
	rm -rf build

# Further targets, one fragment per concern (fuzzing, cross builds).
-include mk/*.mk
