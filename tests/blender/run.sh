#!/bin/sh
# The Blender add-on's tests (mk/blender.mk, make test-blender):
#   sh tests/blender/run.sh BUILD ZIP [CORPUS_FILE...]
# Exit 77 (skipped) without blender; otherwise 0 when every check passes.
# Blender's own chatter is filtered out; each check's result lines are shown.
build=$1 zip=$2
shift 2
blender=${BLENDER:-blender}
if ! command -v "$blender" >/dev/null 2>&1; then
    echo "blender: SKIPPED: no $blender command (apt-get install blender, or make deps-blender)"
    exit 77
fi
run() { # LABEL FILTER SCRIPT ARGS...: one Blender run, its status kept
    label=$1 filter=$2 script=$3
    shift 3
    out=$("$blender" -b --factory-startup -noaudio --python-exit-code 1 \
          --python "$script" -- "$@" 2>&1)
    s=$?
    printf '%s\n' "$out" | grep -E "^($filter|Error|Traceback|  File|[A-Za-z]*Error)"
    if [ $s -ne 0 ]; then
        echo "$label: FAILED (blender exit $s)"
        status=1
    fi
}
status=0
lib=$(cd "$build" && pwd)/libkf3ds.so
[ $# -gt 0 ] || echo "blender: no corpus files (set KF3DS_CORPUS): samples only"
# The zip on its own: installed into a fresh user folder, no KF3DS_LIBRARY,
# so the bundled library is the one loaded.
user=$(cd "$build" && pwd)/blender/user
rm -rf "$user"
( unset KF3DS_LIBRARY; BLENDER_USER_SCRIPTS=$user; export BLENDER_USER_SCRIPTS
  run zip zip tests/blender/check_zip.py "$zip" "$build/kf3ds" data/arm.3ds; exit $status ) || status=1
KF3DS_LIBRARY=$lib; export KF3DS_LIBRARY
run import "add-on|builtin" tests/blender/check_import.py "$build/kf3ds" data/*.3ds "$@" --builtin
run export export tests/blender/check_export.py "$build/blender/export" data/*.3ds \
    --lib3ds "$build/blender/lib3ds-eval"
exit $status
