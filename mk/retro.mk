# Retro builds: the fixed-point reader (include/kf3ds_kfb.h) and kfb-eval
# (examples/kfb_eval.c) freestanding for three FPU-less CPUs, run under
# qemu-user and compared with the native build (docs/kfb.md, "On retro CPUs").
#
#   make retro       build/retro-68000/kfb-eval        68000, -m68000 -msoft-float (qemu-m68k -cpu m68000)
#                    build/retro-arm7tdmi/kfb-eval     ARM7TDMI as in the Game Boy Advance, ARM code,
#                    build/retro-arm7tdmi/kfb-eval-thumb  and Thumb code (qemu-arm -cpu ti925t, ARMv4T)
#                    build/retro-r3000/kfb-eval        MIPS I R3000 as in the PlayStation, -march=r3000
#                                                      -msoft-float (qemu-mipsel -cpu 4Kc, no FPU)
#                    then checks their object code: no FPU instruction, no FPU register, no
#                    soft-float helper (they link no libgcc: tests/retro/runtime.c supplies the
#                    start-up code, the system calls, memcpy, memset and the 68000's __mulsi3),
#                    and prints the reader's code size on each
#   make test-retro  the above, then every corpus file and data/*.3ds baked --fixed and printed
#                    by each of them under qemu: stdout, stderr and exit status byte-identical
#                    to the native build/kfb-eval (tests/retro/run.sh)
#
# Debian packages (installed by tools/ensure-deps.sh when missing): gcc-m68k-linux-gnu,
# gcc-arm-linux-gnueabi, gcc-mipsel-linux-gnu, qemu-user.

.PHONY: retro test-retro retro-deps

RETRO_CORPUS ?= $(or $(KF3DS_CORPUS),../shared/corpus)
RETRO_PKGS    = gcc-m68k-linux-gnu gcc-arm-linux-gnueabi gcc-mipsel-linux-gnu qemu-user
# No C library, no libgcc, no jump-table helpers, no system headers (the reader
# needs none; -nostdinc keeps the hosted glibc headers out).
RETRO_CFLAGS  = -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -ffreestanding -fno-builtin \
                -fno-stack-protector -fno-tree-loop-distribute-patterns -fno-jump-tables \
                -fomit-frame-pointer -nostdinc -Iinclude
RETRO_SRC     = examples/kfb_eval.c tests/retro/runtime.c
RETRO_DEPS    = $(RETRO_SRC) tests/retro/reader.c include/kf3ds_kfb.h mk/retro.mk

# One build: $(1) directory, $(2) program name, $(3) compiler, $(4) its CPU flags.
# The reader alone (reader.o) is compiled with the same flags for its size.
define retro_build
$(1)/$(2): $(RETRO_DEPS)
	@mkdir -p $(1)
	$(3) $(RETRO_CFLAGS) $(4) -isystem $$$$($(3) -print-file-name=include) -DKFB_EVAL_FREESTANDING \
	  -nostdlib -static -o $$@ $(RETRO_SRC)
	$(3) $(RETRO_CFLAGS) $(4) -isystem $$$$($(3) -print-file-name=include) -c tests/retro/reader.c \
	  -o $(1)/$(2).reader.o
endef

RETRO_68000_FLAGS  = -m68000 -msoft-float
RETRO_ARM_FLAGS    = -mcpu=arm7tdmi -mfloat-abi=soft -marm
RETRO_THUMB_FLAGS  = -mcpu=arm7tdmi -mfloat-abi=soft -mthumb -mthumb-interwork
RETRO_R3000_FLAGS  = -march=r3000 -msoft-float -mno-abicalls -fno-pic -G0

$(eval $(call retro_build,build/retro-68000,kfb-eval,m68k-linux-gnu-gcc,$(RETRO_68000_FLAGS)))
$(eval $(call retro_build,build/retro-arm7tdmi,kfb-eval,arm-linux-gnueabi-gcc,$(RETRO_ARM_FLAGS)))
$(eval $(call retro_build,build/retro-arm7tdmi,kfb-eval-thumb,arm-linux-gnueabi-gcc,$(RETRO_THUMB_FLAGS)))
$(eval $(call retro_build,build/retro-r3000,kfb-eval,mipsel-linux-gnu-gcc,$(RETRO_R3000_FLAGS)))

# name | objdump/nm prefix | program | emulator: what the checks and the comparison run.
RETRO_RUNS = "68000|m68k-linux-gnu-|build/retro-68000/kfb-eval|qemu-m68k -cpu m68000" \
             "arm7tdmi|arm-linux-gnueabi-|build/retro-arm7tdmi/kfb-eval|qemu-arm -cpu ti925t" \
             "arm7tdmi-thumb|arm-linux-gnueabi-|build/retro-arm7tdmi/kfb-eval-thumb|qemu-arm -cpu ti925t" \
             "r3000|mipsel-linux-gnu-|build/retro-r3000/kfb-eval|qemu-mipsel -cpu 4Kc"
RETRO_BINS = build/retro-68000/kfb-eval build/retro-arm7tdmi/kfb-eval \
             build/retro-arm7tdmi/kfb-eval-thumb build/retro-r3000/kfb-eval

retro-deps:
	@sh tools/ensure-deps.sh $(RETRO_PKGS)

# The entry points install what is missing first, then build in a fresh make.
retro: retro-deps
	@$(MAKE) --no-print-directory $(RETRO_BINS)
	@sh tests/retro/check_objects.sh $(RETRO_RUNS)

test-retro: retro
	@$(MAKE) --no-print-directory $(BUILD)/kf3ds $(BUILD)/kfb-eval
	@sh tests/retro/run.sh $(BUILD)/kf3ds $(BUILD)/kfb-eval build/retro-test "$(RETRO_CORPUS)" data \
	  $(RETRO_RUNS)
