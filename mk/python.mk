# The Python binding (python/, docs/python.md): a ctypes package over
# libkf3ds.so, tested with Debian's Python, numpy and pytest.
#
#   make test-python    build/libkf3ds.so and build/kf3ds, then the tests in
#                       tests/python (skipped, saying so, without numpy or pytest)
#   make python-wheel   build/python/kf3ds-*.whl with libkf3ds.so inside (offline)
#
# With SAN=1 (the sanitizer pass of make test) the library is an ASan build:
# Python runs with the ASan runtime preloaded and leak checking off (Python
# itself keeps memory to the end).

.PHONY: test-python python-wheel deps-python

PYTHON     ?= /usr/bin/python3
PY_DEPS    := python3-numpy python3-pytest python3-venv
TEST_DEPS  += $(PY_DEPS)
PY_ENV      = KF3DS_LIBRARY=$(abspath $(BUILD))/libkf3ds.so KF3DS_TOOL=$(abspath $(BUILD))/kf3ds \
              PYTHONPATH=$(CURDIR)/python PYTHONDONTWRITEBYTECODE=1
PY_SAN_ENV  = $(if $(filter 1,$(SAN)),LD_PRELOAD=$$($(CC) -print-file-name=libasan.so) \
              ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0)

deps-python:
	@sh tools/ensure-deps.sh $(PY_DEPS)

test-python: $(BUILD)/libkf3ds.so $(BUILD)/kf3ds
	@if ! $(PYTHON) -c 'import numpy, pytest' 2>/dev/null; then \
	  echo "test-python: skipped: $(PYTHON) has no numpy or pytest" \
	    "(sh tools/ensure-deps.sh $(PY_DEPS), or make deps-python)"; exit 0; fi; \
	$(PY_ENV) $(PY_SAN_ENV) $(PYTHON) -m pytest -q -p no:cacheprovider tests/python

python-wheel: $(BUILD)/libkf3ds.so
	@mkdir -p $(BUILD)/python
	rm -rf $(BUILD)/python/src && cp -r python $(BUILD)/python/src && \
	  rm -rf $(BUILD)/python/src/build $(BUILD)/python/src/*.egg-info
	cd $(BUILD)/python/src && KF3DS_LIBRARY=$(abspath $(BUILD))/libkf3ds.so \
	  $(PYTHON) -m pip wheel --no-build-isolation --no-deps --no-index -w .. .
	rm -rf $(BUILD)/python/src
	@ls $(BUILD)/python/*.whl
