# `make bench-convert`: kf3ds convert's throughput against the single-file
# verb in a shell loop (dev/bench/bench_convert.sh); BENCH_CONVERT_FILES files
# (default 2000) are generated.
BENCH_CONVERT_FILES ?= 2000
.PHONY: bench-convert
bench-convert: $(BUILD)/kf3ds
	sh dev/bench/bench_convert.sh $(BUILD) $(BENCH_CONVERT_FILES)
