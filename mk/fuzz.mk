# Fuzzing and memcheck (see docs/robustness.md).
#
#   make fuzz         libFuzzer targets under ASan+UBSan in build/fuzz/, the seeds
#                     the project generates (build/fuzz/seeds) and, when the
#                     optional corpus is there (FUZZ_CORPUS: $KF3DS_CORPUS, else
#                     ../shared/corpus), a seed corpus built from it
#                     (build/fuzz/corpus, never copied into the repository)
#                     (fuzz_cel, the Animator picture decoder, has seeds of its own)
#   make fuzz-smoke   replays tests/fuzz-regressions, then runs every target for
#                     FUZZ_TIME seconds each (in parallel) over the seeds; any
#                     crash, leak, timeout or sanitizer report fails the target
#                     (fuzz_kfb, the .kfb reader, starts from files kf3ds bake
#                     makes of data/*.3ds: build/fuzz/kfb-seeds)
#   make fuzz-run     a longer campaign: FUZZ_TIME=900 make fuzz-run
#                     (FUZZ_SEED: the smoke run's mutations start from seed 1, so
#                     that CI explores the same inputs on every machine and a red
#                     run can be replayed; fuzz-run draws a new seed each time)
#   make valgrind     memcheck over every test binary of the plain build
FUZZ_CC     ?= clang
FUZZ_DIR    := build/fuzz
FUZZ_TIME   ?= 60
FUZZ_SEED   ?= 1
FUZZ_MAXLEN ?= 65536
FUZZ_CORPUS ?= $(or $(KF3DS_CORPUS),../shared/corpus)
FUZZ_FLAGS  := -std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Werror -Iinclude -Itools/cmd -Itools/front \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_LIB    := $(filter-out src/load_file.c src/save_file.c,$(LIB_SRC)) $(RENDER_SRC)
FUZZ_COMMON := fuzz/mutate3ds.c tests/support_chunks.h $(FUZZ_LIB) $(RENDER_HDR)
FUZZ_RUN    = -max_len=$(FUZZ_MAXLEN) -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
               -artifact_prefix=$(FUZZ_DIR)/artifacts/ -seed=$(FUZZ_SEED)
FUZZ_REGRESSIONS := $(sort $(wildcard tests/fuzz-regressions/*.3ds))

.PHONY: fuzz fuzz-deps fuzz-seeds fuzz-smoke fuzz-run valgrind

fuzz-deps:
	@sh tools/ensure-deps.sh clang libclang-rt-14-dev

fuzz: fuzz-deps
	$(MAKE) $(FUZZ_DIR)/fuzz_load $(FUZZ_DIR)/fuzz_walk $(FUZZ_DIR)/fuzz_kfb $(FUZZ_DIR)/fuzz_cel \
	  $(FUZZ_DIR)/fuzz_save fuzz-seeds

$(FUZZ_DIR)/fuzz_load: fuzz/fuzz_load.c tests/support_oracle.c tests/support.h $(FUZZ_COMMON)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_load.c tests/support_oracle.c fuzz/mutate3ds.c \
	  $(FUZZ_LIB) -lm

$(FUZZ_DIR)/fuzz_save: fuzz/fuzz_save.c tests/support_compare.c tests/support.h $(FUZZ_COMMON)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_save.c tests/support_compare.c fuzz/mutate3ds.c \
	  $(FUZZ_LIB) -lm

# The dump verb (tools/cmd/cmd_dump*.c) and the helpers it uses.
FUZZ_DUMP_SRC := $(sort $(wildcard tools/cmd/cmd_dump*.c)) tools/cmd/cmd_common.c

$(FUZZ_DIR)/fuzz_walk: fuzz/fuzz_walk.c $(FUZZ_DUMP_SRC) tools/cmd/cmd.h tools/cmd/cmd_dump.h $(FUZZ_COMMON)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_walk.c fuzz/mutate3ds.c $(FUZZ_DUMP_SRC) $(FUZZ_LIB) -lm

# The .kfb reader (include/kf3ds_kfb.h, header only).
$(FUZZ_DIR)/fuzz_kfb: fuzz/fuzz_kfb.c include/kf3ds_kfb.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_kfb.c

# The Animator CEL/PIC decoder of the command and the wasm module (tools/front/cel_decode.c, libc only).
$(FUZZ_DIR)/fuzz_cel: fuzz/fuzz_cel.c tools/front/cel_decode.c tools/front/cel_decode.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ fuzz/fuzz_cel.c tools/front/cel_decode.c

$(FUZZ_DIR)/gen_cel_seeds: fuzz/gen_cel_seeds.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -g $(WARN) -o $@ fuzz/gen_cel_seeds.c

$(FUZZ_DIR)/gen_seeds: fuzz/gen_seeds.c tests/support_write.c tests/support.h tests/support_w3ds.c \
  tests/support_w3ds.h
	@mkdir -p $(@D)
	$(CC) -std=c11 -O1 -g $(WARN) -Iinclude -Itests -o $@ fuzz/gen_seeds.c tests/support_write.c \
	  tests/support_w3ds.c -lm

# Seeds: the project's own small strange files, its samples, and (when it is
# there) the public corpus, files up to 256 KB, copied into build/ only.
fuzz-seeds: $(FUZZ_DIR)/gen_seeds $(FUZZ_DIR)/gen_cel_seeds $(BUILD)/kf3ds
	@rm -rf $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/kfb-seeds $(FUZZ_DIR)/cel-seeds
	@mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts $(FUZZ_DIR)/kfb-seeds \
	  $(FUZZ_DIR)/work/load $(FUZZ_DIR)/work/walk $(FUZZ_DIR)/work/kfb $(FUZZ_DIR)/work/cel $(FUZZ_DIR)/work/save \
	  $(FUZZ_DIR)/cel-seeds
	$(FUZZ_DIR)/gen_seeds $(FUZZ_DIR)/seeds
	$(FUZZ_DIR)/gen_cel_seeds $(FUZZ_DIR)/cel-seeds
	@cp data/*.cel $(FUZZ_DIR)/cel-seeds/
	@cp data/*.3ds $(FUZZ_DIR)/seeds/
	@for f in data/*.3ds; do b=$$(basename $$f .3ds); \
	  $(BUILD)/kf3ds bake $$f -q --frames 0:3 -o $(FUZZ_DIR)/kfb-seeds/$$b.kfb && \
	  $(BUILD)/kf3ds bake $$f -q --fixed --frames 0:2 --step 0.5 -o $(FUZZ_DIR)/kfb-seeds/$$b-fixed.kfb && \
	  $(BUILD)/kf3ds bake $$f -q --no-meshes --frac-bits 8 --step 9 -o $(FUZZ_DIR)/kfb-seeds/$$b-nomesh.kfb \
	  || exit 1; done
	@cp $(FUZZ_DIR)/kfb-seeds/*.kfb $(FUZZ_DIR)/seeds/
	@if [ -d "$(FUZZ_CORPUS)" ]; then \
	  find "$(FUZZ_CORPUS)" -maxdepth 1 -type f -size -256k ! -name '*.txt' ! -name '*.tsv' \
	    -exec cp {} $(FUZZ_DIR)/corpus/ \; ; \
	  echo "fuzz seeds: $$(ls $(FUZZ_DIR)/seeds | wc -l) generated, $$(ls $(FUZZ_DIR)/corpus | wc -l) from $(FUZZ_CORPUS)"; \
	else echo "fuzz seeds: $$(ls $(FUZZ_DIR)/seeds | wc -l) generated ($(FUZZ_CORPUS) absent)"; fi

# One target: replay the regressions, then fuzz for $(FUZZ_TIME) s.
# $(1) target name, $(2) its work folder; $(3) the inputs to replay and $(4)
# the seed folders, when not the .3ds ones.
fuzz_one = $(FUZZ_DIR)/$(1) $(FUZZ_RUN) -runs=1 $(or $(3),$(FUZZ_REGRESSIONS) $(FUZZ_DIR)/seeds/*) \
	  > $(FUZZ_DIR)/$(1).replay.log 2>&1 \
	  || { tail -n 60 $(FUZZ_DIR)/$(1).replay.log; echo "fuzz-smoke: $(1) failed on a regression or seed"; exit 1; }; \
	$(FUZZ_DIR)/$(1) $(FUZZ_RUN) -max_total_time=$(FUZZ_TIME) $(FUZZ_DIR)/work/$(2) \
	  $(or $(4),$(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus tests/fuzz-regressions) > $(FUZZ_DIR)/$(1).log 2>&1 \
	  || { tail -n 80 $(FUZZ_DIR)/$(1).log; echo "fuzz-smoke: $(1) found a crash (see $(FUZZ_DIR)/artifacts/)"; exit 1; }; \
	grep -E 'DONE|stat::number_of_executed_units|stat::peak_rss' $(FUZZ_DIR)/$(1).log | sed 's/^/$(1): /'

# The decoder's run: its own seeds, no .3ds regressions.
fuzz_cel_run = $(FUZZ_DIR)/fuzz_cel $(FUZZ_RUN) -max_total_time=$(FUZZ_TIME) $(FUZZ_DIR)/work/cel \
	  $(FUZZ_DIR)/cel-seeds > $(FUZZ_DIR)/fuzz_cel.log 2>&1 \
	  || { tail -n 80 $(FUZZ_DIR)/fuzz_cel.log; echo "fuzz-smoke: fuzz_cel found a crash (see $(FUZZ_DIR)/artifacts/)"; exit 1; }; \
	grep -E 'DONE|stat::number_of_executed_units|stat::peak_rss' $(FUZZ_DIR)/fuzz_cel.log | sed 's/^/fuzz_cel: /'

fuzz-smoke: fuzz
	@echo "fuzz-smoke: 5 targets, $(FUZZ_TIME) s each, in parallel"
	@( $(call fuzz_one,fuzz_load,load) ) & p1=$$!; \
	 ( $(call fuzz_one,fuzz_walk,walk) ) & p2=$$!; \
	 ( $(call fuzz_one,fuzz_kfb,kfb,$(FUZZ_DIR)/kfb-seeds/*,$(FUZZ_DIR)/kfb-seeds) ) & p3=$$!; \
	 ( $(fuzz_cel_run) ) & p4=$$!; \
	 ( $(call fuzz_one,fuzz_save,save) ) & p5=$$!; \
	 s=0; wait $$p1 || s=1; wait $$p2 || s=1; wait $$p3 || s=1; wait $$p4 || s=1; wait $$p5 || s=1; \
	 if [ $$s = 0 ]; then echo "fuzz-smoke: 5 passed, 0 failed"; else echo "fuzz-smoke: failed"; fi; exit $$s

fuzz-run: FUZZ_TIME = 900
fuzz-run: FUZZ_SEED = 0
fuzz-run: fuzz-smoke

# Memcheck over the plain build's test binaries (the tool the tests spawn is
# not traced: it is a separate program with its own tests).
VALGRIND_FLAGS ?= --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
                  --trace-children=no --quiet
valgrind: deps-test
	@sh tools/ensure-deps.sh valgrind
	$(MAKE) $(TEST_BIN) all
	@fail=0; for t in $(TEST_BIN); do echo "== valgrind $$t"; \
	  KF3DS_TOOL=$(BUILD)/kf3ds valgrind $(VALGRIND_FLAGS) $$t > $(BUILD)/valgrind-$$(basename $$t).log 2>&1 \
	    || { fail=1; tail -n 40 $(BUILD)/valgrind-$$(basename $$t).log; }; done; \
	if [ $$fail = 0 ]; then echo "valgrind: every test binary clean"; fi; test $$fail = 0
