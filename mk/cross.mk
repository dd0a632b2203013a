# Cross builds: the core library and the kf3ds command (without its SDL2/PNG
# front ends) for a retro-ish target, statically linked, and a comparison of
# their output under qemu-user with the native build's. Same sources for
# every target; only the compiler and the emulator change.
#
#   make cross      TARGET=m68k-linux-gnu     build/m68k-linux-gnu/{libkf3ds.a,kf3ds,embed}
#   make test-cross TARGET=powerpc-linux-gnu  every ../shared/corpus file and data/*.3ds:
#                                             dump and info identical to the native build's,
#                                             eval --json --verts within 1e-5 of the extent
#   make cross      TARGET=i686               32-bit x86 (i686-linux-gnu-gcc, or $(CC) -m32)
#   make test-cross TARGET=wasm32-wasi        WebAssembly (clang, wasi-libc), run by Node's
#                                             WASI in place of qemu (tests/cross/wasi_run.mjs)
#   make freestanding                         the core with -ffreestanding, what it needs from
#                                             the environment, a -nostdlib link that runs
#   make embed-check                          examples/embed.c as strict C99, linked and run
#   make plain-check                          the library without its GNU C fast paths (vector
#                                             extension, vectorised loops): output identical
#
# Any other GNU triplet works when its X-gcc and qemu exist: TARGET=mips-linux-gnu
# (QEMU=qemu-mips when the guess below is wrong). Debian packages are installed
# by tools/ensure-deps.sh when missing. gcc-multilib conflicts with the m68k and
# powerpc cross compilers in Debian, so the 32-bit x86 build uses the
# gcc-i686-linux-gnu cross compiler unless $(CC) -m32 already links.

.PHONY: cross test-cross cross-build cross-deps freestanding embed-check plain-check

CROSS_CORPUS  ?= $(or $(KF3DS_CORPUS),../shared/corpus)
CROSS_WARN     = -Wall -Wextra -Wpedantic -Werror
CROSS_OPT     ?= -O2
CROSS_CMD_SRC  = tools/cmd/kf3ds.c tools/cmd/cli_options.c tools/cmd/cmd_common.c $(sort $(wildcard tools/cmd/cmd_dump*.c)) tools/cmd/cmd_info.c \
                 tools/cmd/cmd_eval.c tools/cmd/cmd_maps.c tools/cmd/cmd_rewrite.c $(sort $(wildcard tools/cmd/cmd_bake*.c))

ifeq ($(strip $(TARGET)),)
cross test-cross cross-build cross-deps:
	@echo "usage: make $@ TARGET=m68k-linux-gnu | powerpc-linux-gnu | i686 | wasm32-wasi" >&2; exit 2
else
CROSS_DIR      = build/$(TARGET)
CROSS_CORE_OBJ = $(LIB_SRC:src/%.c=$(CROSS_DIR)/obj/%.o)
# The bake module (src/bake/, the library half of the bake verb) goes into the
# target's libkf3ds.a beside the core; the sizes below stay the core's.
CROSS_BAKE_OBJ = $(patsubst src/%.c,$(CROSS_DIR)/obj/%.o,$(filter src/bake/%,$(MODULE_SRC)))

# Per target: compiler, flags, emulator (empty: runs natively), Debian packages.
ifeq ($(TARGET),i686)
ifeq ($(origin CROSS_CC),undefined)
CROSS_CC   := $(shell command -v i686-linux-gnu-gcc >/dev/null 2>&1 && echo i686-linux-gnu-gcc || \
                { printf 'int main(void){return 0;}' | $(CC) -m32 -static -x c - -o /dev/null \
                  >/dev/null 2>&1 && echo '$(CC)'; } || echo i686-linux-gnu-gcc)
endif
CROSS_ARCH  = -m32 -march=i686
CROSS_QEMU  =
CROSS_QEMU_FALLBACK = qemu-i386
CROSS_PKGS  = $(if $(filter i686-linux-gnu-gcc,$(CROSS_CC)),gcc-i686-linux-gnu) qemu-user
else ifeq ($(TARGET),wasm32-wasi)
# WebAssembly with wasi-libc (the toolchain of make wasm, mk/wasm.mk), run by
# Node's WASI instead of qemu (tests/cross/wasi_run.mjs). WASI has no process
# ids (the command's temporary output names use one: wasi-libc's emulation)
# and starts programs in "/" (tests/cross/wasi_cwd.c moves to the host's
# working directory). The archive tools are LLVM's: binutils reads no wasm.
CROSS_CC   ?= clang --target=wasm32-wasi
CROSS_ARCH  = -D_WASI_EMULATED_GETPID
CROSS_QEMU  = $(or $(QEMU),tests/cross/wasi_run.mjs)
CROSS_LINK_EXTRA = tests/cross/wasi_cwd.c -lwasi-emulated-getpid
CROSS_TOOL  = llvm-$(1)-14
CROSS_PKGS  = wasi-libc libclang-rt-14-dev-wasm32 lld llvm-14 $(if $(shell command -v node),,nodejs)
else
CROSS_CC   ?= $(TARGET)-gcc
CROSS_ARCH  =
CROSS_QEMU  = $(or $(QEMU),qemu-$(patsubst powerpc,ppc,$(patsubst powerpc64,ppc64,$(patsubst \
              powerpc64le,ppc64le,$(patsubst i%86,i386,$(firstword $(subst -, ,$(TARGET))))))))
CROSS_PKGS  = gcc-$(TARGET) qemu-user
endif
CROSS_CFLAGS = $(CROSS_ARCH) $(CROSS_OPT) -Iinclude
# Rebuild when the compiler or flags change (CROSS_OPT="-O2 -std=gnu99" ...).
CROSS_STAMP  = $(CROSS_DIR)/flags
$(shell mkdir -p $(CROSS_DIR) && { echo '$(CROSS_CC) $(CROSS_CFLAGS)' | cmp -s - $(CROSS_STAMP) || \
  echo '$(CROSS_CC) $(CROSS_CFLAGS)' > $(CROSS_STAMP); })
CROSS_TOOL  ?= $(if $(filter %-gcc,$(CROSS_CC)),$(patsubst %-gcc,%-$(1),$(CROSS_CC)),$(1))

# What test-cross runs: the binaries themselves, except on 32-bit PowerPC where
# qemu 7.2 needs glibc's ISA 3.0 mffs* instructions decoded as pre-POWER9
# hardware does (tests/cross/ppc_mffs.c says why; the built binaries are untouched).
CROSS_RUN = $(if $(filter powerpc-% ppc-%,$(TARGET)),$(CROSS_DIR)/$(1)-qemu,$(CROSS_DIR)/$(1))

# The entry points install what is missing, then build in a fresh make so that
# the compiler found after the install is the one used.
cross: cross-deps
	@$(MAKE) --no-print-directory cross-build TARGET=$(TARGET)

test-cross: cross-deps
	@$(MAKE) --no-print-directory cross-build $(call CROSS_RUN,kf3ds) $(call CROSS_RUN,embed) \
	  TARGET=$(TARGET)
	@$(MAKE) --no-print-directory $(BUILD)/kf3ds $(BUILD)/cross-compare $(BUILD)/embed
	@CROSS_QEMU_FALLBACK=$(CROSS_QEMU_FALLBACK) sh tests/cross/run.sh $(BUILD)/kf3ds $(call CROSS_RUN,kf3ds) "$(CROSS_QEMU)" \
	  $(BUILD)/cross-compare $(CROSS_DIR)/test "$(CROSS_CORPUS)" data \
	  $(BUILD)/embed $(call CROSS_RUN,embed)

cross-deps:
	@sh tools/ensure-deps.sh $(CROSS_PKGS)

# Sizes: the core library, the loader and evaluator alone (no load_file.o,
# the stdio wrapper), and the static command. (The renderer, src/render/, is
# not part of the core and not built for these targets.)
CROSS_EVAL_OBJ = $(filter-out $(CROSS_DIR)/obj/load_file.o,$(CROSS_CORE_OBJ))
cross-build: $(CROSS_DIR)/libkf3ds.a $(CROSS_DIR)/kf3ds $(CROSS_DIR)/embed
	@$(call CROSS_TOOL,size) $(CROSS_CORE_OBJ) | awk 'NR > 1 { t += $$1; d += $$2; b += $$3 } \
	  END { printf "$(TARGET): libkf3ds.a objects: text %d data %d bss %d bytes\n", t, d, b }'
	@$(call CROSS_TOOL,size) $(CROSS_EVAL_OBJ) | awk 'NR > 1 { t += $$1; d += $$2; b += $$3 } \
	  END { printf "$(TARGET): loader + evaluator only: text %d data %d bss %d bytes\n", t, d, b }'
	@$(call CROSS_TOOL,size) $(CROSS_DIR)/kf3ds | awk 'NR == 2 { \
	  printf "$(TARGET): kf3ds (static, with libc): text %d data %d bss %d bytes\n", $$1, $$2, $$3 }'
	@echo "built $(CROSS_DIR)/kf3ds with $(CROSS_CC)$(if $(CROSS_QEMU), (run: $(CROSS_QEMU) $(CROSS_DIR)/kf3ds))"

# The core as strict C99 for the target; the command as C11, like the native build.
$(CROSS_DIR)/obj/%.o: src/%.c $(LIB_HDR) $(CROSS_STAMP)
	@mkdir -p $(@D)
	$(CROSS_CC) -std=c99 $(CROSS_WARN) $(CROSS_CFLAGS) -c $< -o $@

$(CROSS_BAKE_OBJ): $(MODULE_HDR)

$(CROSS_DIR)/libkf3ds.a: $(CROSS_CORE_OBJ) $(CROSS_BAKE_OBJ)
	rm -f $@ && $(call CROSS_TOOL,ar) rcs $@ $^

$(CROSS_DIR)/kf3ds: $(CROSS_CMD_SRC) $(wildcard tools/cmd/*.h) $(CROSS_DIR)/libkf3ds.a $(CROSS_STAMP)
	$(CROSS_CC) -std=c11 $(CROSS_WARN) $(CROSS_CFLAGS) -DKF3DS_NO_FRONTENDS -static -o $@ \
	  $(CROSS_CMD_SRC) $(CROSS_DIR)/libkf3ds.a -lm $(CROSS_LINK_EXTRA)

$(CROSS_DIR)/embed: examples/embed.c $(CROSS_DIR)/libkf3ds.a $(CROSS_STAMP)
	$(CROSS_CC) -std=c99 $(CROSS_WARN) $(CROSS_CFLAGS) -static -o $@ $< $(CROSS_DIR)/libkf3ds.a -lm \
	  $(CROSS_LINK_EXTRA)

$(CROSS_DIR)/%-qemu: $(CROSS_DIR)/% $(BUILD)/cross-ppc-mffs
	$(BUILD)/cross-ppc-mffs $< $@ >/dev/null && chmod +x $@
endif

# Native helpers of test-cross.
$(BUILD)/cross-compare: tests/cross/compare.c
	@mkdir -p $(@D)
	$(CC) -std=c99 $(WARN) -O2 -o $@ $< -lm

$(BUILD)/cross-ppc-mffs: tests/cross/ppc_mffs.c
	@mkdir -p $(@D)
	$(CC) -std=c99 $(WARN) -O2 -o $@ $<

# ---- examples/embed.c: strict C99 with gcc and clang, linked and run --------
$(BUILD)/embed: examples/embed.c $(BUILD)/libkf3ds.a
	$(CC) -std=c99 $(WARN) -O2 -Iinclude -o $@ $< $(BUILD)/libkf3ds.a -lm

embed-check: $(BUILD)/embed
	@for cc in gcc clang; do command -v $$cc >/dev/null || continue; \
	  $$cc -std=c99 $(WARN) -Iinclude -fsyntax-only examples/embed.c || exit 1; done
	$(BUILD)/embed data/arm.3ds

# ---- freestanding -------------------------------------------------------------
# Every core file but src/load_file.c, compiled with -ffreestanding and
# KF3DS_NO_DEFAULT_ALLOCATOR (no malloc: the caller's allocator hooks are
# required, loading without them fails with KF3DS_ERR_ARGUMENT). The objects
# are linked into one relocatable object whose undefined symbols must be the
# string and math functions below: that is all the core asks of its
# environment. On x86-64 Linux tests/cross/freestanding.c (entry point, those
# functions, an arena, data/arm.3ds) is then linked with -nostdlib and run.
FS_DIR      = build/freestanding
FS_SRC      = $(filter-out src/load_file.c src/save_file.c,$(LIB_SRC)) $(RENDER_SRC)
FS_OBJ      = $(FS_SRC:src/%.c=$(FS_DIR)/obj/%.o)
FS_CFLAGS   = -std=c99 $(WARN) -O2 -ffreestanding -fno-stack-protector \
              -DKF3DS_NO_DEFAULT_ALLOCATOR -Iinclude
FS_ALLOWED  = memchr memcpy memset strcmp strlen \
              acos acosf atan atan2 ceil cos cosf fabs fabsf floor fmod log10 pow \
              sin sinf sqrt sqrtf tan tanf

$(FS_DIR)/obj/%.o: src/%.c $(RENDER_HDR)
	@mkdir -p $(@D)
	$(CC) $(FS_CFLAGS) -c $< -o $@

$(FS_DIR)/libkf3ds.a: $(FS_OBJ)
	rm -f $@ && ar rcs $@ $^

$(FS_DIR)/kf3ds-core.o: $(FS_OBJ)
	$(CC) -nostdlib -r -o $@ $^

$(FS_DIR)/link-test: tests/cross/freestanding.c data/arm.3ds $(FS_DIR)/libkf3ds.a
	$(CC) -std=c99 -Wall -Wextra -Werror -O2 -ffreestanding -fno-stack-protector \
	  -fno-tree-loop-distribute-patterns -Iinclude -c $< -o $(FS_DIR)/freestanding.o
	$(CC) -nostdlib -static -o $@ $(FS_DIR)/freestanding.o $(FS_DIR)/libkf3ds.a -lgcc

freestanding: $(FS_DIR)/kf3ds-core.o
	@for cc in clang; do command -v $$cc >/dev/null || continue; \
	  for f in $(FS_SRC); do $$cc $(FS_CFLAGS) -fsyntax-only $$f || exit 1; done; \
	  echo "freestanding: the core compiles with $$cc -ffreestanding too"; done
	@needs=$$(nm -u $(FS_DIR)/kf3ds-core.o | awk '{ print $$2 }' | sort | tr '\n' ' '); \
	extra=""; for s in $$needs; do \
	  case " $(strip $(FS_ALLOWED)) " in *" $$s "*) ;; *) extra="$$extra $$s";; esac; done; \
	if [ -n "$$extra" ]; then \
	  echo "freestanding: the core needs more than string and math functions:$$extra" >&2; exit 1; fi; \
	echo "freestanding: the core (all of src/ but load_file.c and save_file.c) needs from its environment only: $$needs"
	@if [ "$$(uname -m)-$$(uname -s)" = x86_64-Linux ]; then \
	  $(MAKE) --no-print-directory $(FS_DIR)/link-test && $(FS_DIR)/link-test | tee $(FS_DIR)/link-test.txt && \
	  if [ -x $(BUILD)/kf3ds ]; then \
	    want=$$($(BUILD)/kf3ds eval data/arm.3ds --frame 30 --verts | \
	            awk '/^ *verts [0-9]+$$/ { n = $$2; next } n > 0 { s += $$2 + $$3 + $$4; n-- } \
	                 END { printf "%.4f", s }'); \
	    got=$$(sed -n 's/.*coordinate sum \([-0-9.]*\).*/\1/p' $(FS_DIR)/link-test.txt); \
	    awk -v a="$$want" -v b="$$got" 'BEGIN { d = a - b; if (d < 0) d = -d; \
	      if (b == "" || d > 0.01) { print "freestanding: the sum differs from kf3ds eval: " a; exit 1 } \
	      print "freestanding: the coordinate sum matches kf3ds eval (" a ")" }'; \
	  fi; \
	else echo "freestanding: the -nostdlib link test is written for x86-64 Linux; skipped"; fi

# The evaluator has fast paths for GCC and clang (src/eval.c: vector extension;
# src/track_eval.h: the squad batch, vectorised) whose results must be the
# plain C code's, bit for bit: the same command built with -DKF3DS_PLAIN_C and
# without vectorisation gives the same dump, info and eval output, numbers
# compared exactly (tolerance 0). The renderer's vector paths likewise draw
# the same pictures as the plain build, byte for byte (tests/cross/render_same.sh).
# First, nm: the plain libraries define none of the fast paths' functions
# (src/simd.h names them; PLAIN_FAST_SYMBOLS matches them), so the plain build
# really compares the plain references with the fast versions.
# That the comparisons can fail was checked by sabotage, a plain reference
# perturbed by hand and reverted: to_fix in src/render/raster_fill_plain.c
# scaled by 65537 instead of 65536 makes render-same report differing
# pictures; chain_step in src/track_setup_plain.c multiplying its quaternions
# in the other order makes test-cross report differing dump and eval output.
# Either way plain-check fails; reverted, it passes again.
PLAIN_DIR = build/plain
PLAIN_FAST_SYMBOLS = _sse2|_avx2|_lanes|^span4|pair_consts_
plain-check:
	@$(MAKE) --no-print-directory $(BUILD)/kf3ds $(BUILD)/cross-compare $(BUILD)/mk3ds
	@$(MAKE) --no-print-directory BUILD=$(PLAIN_DIR) CFLAGS="-O3 -g -DKF3DS_PLAIN_C" \
	  LIB_CFLAGS="-fno-math-errno -fno-trapping-math -fno-tree-vectorize -fno-tree-slp-vectorize" \
	  $(PLAIN_DIR)/kf3ds
	@fast=$$(nm $(PLAIN_DIR)/libkf3ds.a $(PLAIN_DIR)/libkf3ds_render.a 2>/dev/null | \
	  awk 'NF >= 3 { print $$3 }' | grep -E '$(PLAIN_FAST_SYMBOLS)' | sort -u | tr '\n' ' '); \
	if [ -n "$$fast" ]; then echo "plain-check: the plain build has fast paths: $$fast" >&2; exit 1; fi; \
	have=$$(nm $(BUILD)/libkf3ds.a $(BUILD)/libkf3ds_render.a 2>/dev/null | \
	  awk 'NF >= 3 { print $$3 }' | grep -cE '$(PLAIN_FAST_SYMBOLS)'); \
	echo "plain-check: nm: no fast-path symbols in the plain build ($$have in the default build)"
	@CROSS_TOLERANCE=0 sh tests/cross/run.sh $(BUILD)/kf3ds $(PLAIN_DIR)/kf3ds "" \
	  $(BUILD)/cross-compare $(PLAIN_DIR)/test "$(CROSS_CORPUS)" data
	@sh tests/cross/render_same.sh $(BUILD)/kf3ds $(PLAIN_DIR)/kf3ds $(BUILD)/mk3ds \
	  $(PLAIN_DIR)/render data
