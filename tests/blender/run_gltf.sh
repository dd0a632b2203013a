#!/bin/sh
# Blender's own glTF importer reads kf3ds exports (mk/blender.mk,
# make test-blender-gltf; tests/blender/check_gltf_import.py says what is
# measured):
#   sh tests/blender/run_gltf.sh BUILD SAMPLE... [-- CORPUS_FILE...]
# `kf3ds export --linear`, held to the bound everywhere (--strict): the
# samples at 40 frames, the corpus files at 15; then the default export
# (CUBICSPLINE where it saves keys, whose tangents Blender 3.4 drops),
# reported: the samples at 20 frames, the corpus files at 5 (10 instants
# per frame each).
# Exit 77 (skipped) without blender or without its glTF importer.
build=$1
shift
blender=${BLENDER:-blender}
if ! command -v "$blender" >/dev/null 2>&1; then
    echo "blender gltf: SKIPPED: no $blender command (apt-get install blender, or make deps-blender)"
    exit 77
fi
samples=
while [ $# -gt 0 ] && [ "$1" != -- ]; do samples="$samples $1"; shift; done
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || echo "blender gltf: no corpus files (set KF3DS_CORPUS): samples only"
KF3DS_LIBRARY=$(cd "$build" && pwd)/libkf3ds.so
export KF3DS_LIBRARY
out=$("$blender" -b --factory-startup -noaudio --python-exit-code 1 \
      --python tests/blender/check_gltf_import.py -- "$build/kf3ds" "$build/blender/gltf" --strict-nlerp \
      --export-opt --linear --strict --frames 40 $samples --frames 15 "$@" \
      --no-export-opt --report --frames 20 $samples --frames 5 "$@" 2>&1)
s=$?
printf '%s\n' "$out" | grep -E "^(gltf|Error|Traceback|  File|[A-Za-z]*Error)"
[ $s -eq 0 ] || [ $s -eq 77 ] || echo "blender gltf: FAILED (blender exit $s)"
exit $s
