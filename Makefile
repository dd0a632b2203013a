# kf3ds — see README.md. `make` builds into build/, `make test` runs every test
# twice: a plain build and an ASan+UBSan build (build/san/).
CC      ?= cc
BUILD   ?= build
SAN     ?=
PREFIX  ?= /usr/local
WARN    := -Wall -Wextra -Wpedantic -Werror
CFLAGS  ?= -O3 -g
override CFLAGS += -std=c11 $(WARN) -Iinclude
ifeq ($(SAN),1)
override CFLAGS  += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
override LDFLAGS += -fsanitize=address,undefined
endif
LDLIBS  += -lm
# The library never reads errno or the floating-point exception flags; saying
# so lets the compiler vectorise the squad batch (src/track_eval.h). Results
# are the same without these flags, only slower.
LIB_CFLAGS := -fno-math-errno -fno-trapping-math
# Front ends only: the viewer links SDL2, rendering to PNG libpng.
FRONT_CFLAGS = $(shell pkg-config --cflags sdl2 libpng 2>/dev/null)
FRONT_LIBS   = $(shell pkg-config --libs sdl2 libpng 2>/dev/null || echo -lSDL2 -lpng)

LIB_SRC   := $(sort $(wildcard src/*.c))
LIB_OBJ   := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
CORE_OBJ  := $(filter-out $(BUILD)/obj/load_file.o,$(LIB_OBJ))
CMD_SRC   := tools/kf3ds.c $(sort $(wildcard tools/cmd_*.c))
GEN_SRC   := tools/mk3ds.c tools/write3ds.c
TEST_SRC  := $(sort $(wildcard tests/test_*.c))
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_SUPPORT := tests/support.c tests/support_write.c tests/support_oracle.c tools/write3ds.c
DATA      := data/orrery.3ds data/arm.3ds data/edge.3ds

.PHONY: all test check run images bench data install clean deps-build deps-test deps-bench c99
all: $(BUILD)/libkf3ds.a $(BUILD)/libkf3ds.so $(BUILD)/kf3ds $(BUILD)/kf3ds-bench $(BUILD)/mk3ds \
     $(BUILD)/play

$(BUILD)/play: examples/play.c $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libkf3ds.a $(LDLIBS)

$(BUILD)/obj/%.o: src/%.c include/kf3ds.h $(wildcard src/*.h) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/libkf3ds.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/libkf3ds.so: $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared $(LDFLAGS) -o $@ $^ -lm

$(BUILD)/kf3ds: $(CMD_SRC) $(wildcard tools/*.h) $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(FRONT_CFLAGS) $(LDFLAGS) -o $@ $(CMD_SRC) $(BUILD)/libkf3ds.a $(FRONT_LIBS) $(LDLIBS)

$(BUILD)/kf3ds-bench: tools/bench.c tools/bench_clock.h $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ tools/bench.c $(BUILD)/libkf3ds.a $(LDLIBS)


$(BUILD)/mk3ds: $(GEN_SRC) tools/write3ds.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(GEN_SRC) $(LDLIBS)

# Tests: every tests/test_*.c is one cmocka program; test_diff_* also links lib3ds,
# test_png_* SDL2 and libpng.
$(BUILD)/tests/%: tests/%.c $(TEST_SUPPORT) tests/support.h $(BUILD)/libkf3ds.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools -Itests $(FRONT_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_SUPPORT) \
	  $(BUILD)/libkf3ds.a -lcmocka $(if $(findstring test_diff,$*),-l3ds) \
	  $(if $(findstring test_png,$*),$(FRONT_LIBS)) $(LDLIBS)

check: $(TEST_BIN) all
	@set -e; fail=0; for t in $(TEST_BIN); do \
	  echo "== $$t"; KF3DS_TOOL=$(BUILD)/kf3ds $$t || fail=1; done; \
	echo "== examples/play"; $(BUILD)/play data/arm.3ds > /dev/null || fail=1; \
	test $$fail = 0

deps-test: deps-build
	@sh tools/ensure-deps.sh libcmocka-dev lib3ds-dev

test: deps-test
	$(MAKE) check
	$(MAKE) check BUILD=build/san SAN=1 CFLAGS="-O1 -g"
	$(MAKE) c99

# The core must also compile as C99, and everything as C11, with gcc and clang.
c99:
	@for cc in gcc clang; do command -v $$cc >/dev/null || continue; \
	  for f in $(LIB_SRC); do $$cc -std=c99 $(WARN) -Iinclude -fsyntax-only $$f || exit 1; done; \
	  for f in $(CMD_SRC) $(GEN_SRC) tools/bench.c $(TEST_SRC) tests/support.c examples/play.c; do \
	    $$cc -std=c11 $(WARN) -Iinclude -Itools -Itests $(FRONT_CFLAGS) -fsyntax-only $$f || exit 1; done; \
	  echo "c99 core and c11 tools/tests ok with $$cc"; done

deps-build:
	@sh tools/ensure-deps.sh make gcc libc6-dev pkg-config libsdl2-dev libpng-dev

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

data: $(BUILD)/mk3ds
	$(BUILD)/mk3ds samples data

bench: all deps-bench
	$(MAKE) $(BUILD)/bench-lib3ds
	sh tools/bench.sh $(BUILD)

deps-bench:
	@sh tools/ensure-deps.sh lib3ds-dev

$(BUILD)/bench-lib3ds: tools/bench_lib3ds.c tools/bench_clock.h
	@mkdir -p $(@D)
	$(CC) -O2 -g -std=c11 -Wall -Wextra -o $@ $< -l3ds -lm

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/kf3ds.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 $(BUILD)/libkf3ds.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libkf3ds.so $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/kf3ds $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|0.1.0|' kf3ds.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/kf3ds.pc

clean:
	rm -rf build

# Further targets, one fragment per concern (fuzzing, cross builds).
-include mk/*.mk
