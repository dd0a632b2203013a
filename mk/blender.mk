# The Blender add-on (blender/io_import_kf3ds, docs/blender.md), tested in
# Debian's blender 3.4 run headless.
#
#   make blender-addon   build/blender/io_import_kf3ds.zip: the add-on with the
#                        kf3ds Python package and libkf3ds.so inside, for
#                        Blender's Preferences > Add-ons > Install
#   make test-blender    the zip installs and imports; every sample and a few
#                        corpus files import within 1e-4 of the scene extent of
#                        kf3ds eval at frames and half frames; export round trips
#                        (exit 77, skipped, when blender is missing)
#
# With SAN=1 the library is an ASan build: Blender runs with the ASan runtime
# preloaded and leak checking off, as the Python tests do (mk/python.mk).

.PHONY: blender-addon test-blender deps-blender blender-image

BLENDER       ?= blender
BLENDER_DEPS  := blender python3-numpy assimp-utils lib3ds-dev
BLENDER_ZIP    = $(BUILD)/blender/io_import_kf3ds.zip
BLENDER_ADDON := $(wildcard blender/io_import_kf3ds/*.py)
# Animated corpus files, chosen to cover cameras with roll, a dummy hierarchy,
# long segments, many nodes and large meshes within a few minutes.
BLENDER_CORPUS_FILES := assimp-CameraRollAnim.3ds assimp-TargetCameraAnim.3ds \
  assimp-cart_wheel.3DS blitz3d-mak_robotic.3DS blitz3d-SKELETON.3DS sr-CITY.3DS \
  sr-PASKA2.3DS assimp-test1.3ds blitz3d-ufo.3ds
BLENDER_CORPUS = $(if $(KF3DS_CORPUS),$(KF3DS_CORPUS),../shared/corpus)

deps-blender:
	@sh tools/ensure-deps.sh $(BLENDER_DEPS)

$(BLENDER_ZIP): $(BLENDER_ADDON) $(wildcard python/kf3ds/*.py) $(BUILD)/libkf3ds.so
	rm -rf $(BUILD)/blender/stage && mkdir -p $(BUILD)/blender/stage/io_import_kf3ds/kf3ds
	cp $(BLENDER_ADDON) $(BUILD)/blender/stage/io_import_kf3ds/
	cp python/kf3ds/*.py $(BUILD)/blender/stage/io_import_kf3ds/kf3ds/
	cp -L $(BUILD)/libkf3ds.so $(BUILD)/blender/stage/io_import_kf3ds/kf3ds/libkf3ds.so
	rm -f $@ && cd $(BUILD)/blender/stage && $(PYTHON) -m zipfile -c ../$(@F) io_import_kf3ds
	rm -rf $(BUILD)/blender/stage

blender-addon: $(BLENDER_ZIP)
	@ls -l $(BLENDER_ZIP)

# lib3ds 1.3's evaluation of the exported files (tests/blender/lib3ds_eval.c),
# built where lib3ds-dev is installed; check_export.py says when it is not.
$(BUILD)/blender/lib3ds-eval: tests/blender/lib3ds_eval.c
	@mkdir -p $(@D)
	$(CC) $(TOOL_STD) $(CFLAGS) $(LDFLAGS) -o $@ $< -l3ds $(LDLIBS)

test-blender: $(BUILD)/libkf3ds.so $(BUILD)/kf3ds $(BLENDER_ZIP) \
              $(if $(wildcard /usr/include/lib3ds/file.h),$(BUILD)/blender/lib3ds-eval)
	@$(PY_SAN_ENV) PYTHONDONTWRITEBYTECODE=1 BLENDER=$(BLENDER) sh tests/blender/run.sh $(BUILD) \
	  $(BLENDER_ZIP) $(wildcard $(addprefix $(BLENDER_CORPUS)/,$(BLENDER_CORPUS_FILES)))

# docs/img/blender-addon.png: data/textured.3ds imported by the add-on and
# rendered by Blender (Cycles on the CPU) at frame 8, from the file's camera.
blender-image: $(BUILD)/libkf3ds.so
	KF3DS_LIBRARY=$(abspath $(BUILD))/libkf3ds.so $(BLENDER) -b --factory-startup -noaudio \
	  --python-exit-code 1 --python dev/blender_addon_image.py -- data/textured.3ds 8 \
	  docs/img/blender-addon.png

# Blender's own glTF importer (io_scene_gltf2) reads `kf3ds export` output,
# node boxes against kf3ds eval --verts at 10 instants per frame
# (tests/blender/run_gltf.sh, check_gltf_import.py; docs/gltf.md "How it is
# checked"): `--linear` held to the bound (every sample at up to 40 frames,
# these corpus files at 15), then the default export reported (20 and 5
# frames: Blender 3.4 drops CUBICSPLINE tangents). Chosen for rotations far
# apart (I_SHP_3, PXLSHIP3, RotatingCube, shield), cubic channels (claw,
# SCENE, skull), a deep rig (mak_robotic) and a dummy hierarchy (cart_wheel);
# 14.4 s of CPU, 64 s wall on a loaded 2-core machine. Run by make check as
# "blender gltf".
BLENDER_GLTF_CORPUS := sr-I_SHP_3.3DS sr-PXLSHIP3.3DS assimp-RotatingCube.3DS \
  playerom-shield.3DS blitz3d-claw.3DS sr-SCENE.3DS blitz3d-skull.3ds \
  blitz3d-mak_robotic.3DS assimp-cart_wheel.3DS
BLENDER_GLTF_RUN = $(PY_SAN_ENV) PYTHONDONTWRITEBYTECODE=1 BLENDER=$(BLENDER) \
  sh tests/blender/run_gltf.sh $(BUILD) $(wildcard data/*.3ds) -- \
  $(wildcard $(addprefix $(BLENDER_CORPUS)/,$(BLENDER_GLTF_CORPUS)))

.PHONY: test-blender-gltf
test-blender-gltf: $(BUILD)/libkf3ds.so $(BUILD)/kf3ds
	@$(BLENDER_GLTF_RUN)
