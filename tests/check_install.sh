#!/bin/sh
# make install into a temporary DESTDIR (PREFIX=/usr), then what the README
# says to build against the staged tree: examples/play.c compiled and linked
# with the flags pkg-config gives for kf3ds under PKG_CONFIG_SYSROOT_DIR, and
# run on data/arm.3ds with the staged shared library; then make uninstall with
# the same DESTDIR and PREFIX, which must leave the staging folder empty.
# Exits 1 naming the first thing that failed, 0 when all held.
#   sh tests/check_install.sh [BUILD] [CC] [LDFLAGS]   (from `make check-install`)
set -u
build=${1:-build}
cc=${2:-cc}
ldflags=${3:-}
make=${MAKE:-make}
me=check_install

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-install-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage

fail() {
  echo "$me: $*" >&2
  exit 1
}

$make -s --no-print-directory install BUILD="$build" DESTDIR="$stage" PREFIX=/usr \
  > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "make install failed"; }
files=$(cd "$stage" && find . ! -type d | sort)
count=$(printf '%s\n' "$files" | grep -c .)
for f in usr/include/kf3ds.h usr/lib/libkf3ds.so usr/lib/libkf3ds.a usr/bin/kf3ds \
         usr/lib/pkgconfig/kf3ds.pc usr/lib/pkgconfig/kf3ds-render.pc \
         usr/share/man/man1/kf3ds.1 usr/share/thumbnailers/kf3ds.thumbnailer \
         usr/share/mime/packages/kf3ds.xml; do
  [ -e "$stage/$f" ] || fail "make install did not put $f"
done
grep -qx 'Exec=/usr/bin/kf3ds thumbnail %i %o %s' "$stage/usr/share/thumbnailers/kf3ds.thumbnailer" ||
  fail "the installed thumbnailer entry does not run /usr/bin/kf3ds thumbnail"

# the .pc files name /usr; the sysroot maps it into the staged tree
pc() {
  PKG_CONFIG_SYSROOT_DIR=$stage PKG_CONFIG_LIBDIR=$stage/usr/lib/pkgconfig pkg-config "$@"
}
if command -v pkg-config > /dev/null 2>&1; then
  flags=$(pc --cflags --libs kf3ds) || fail "pkg-config kf3ds failed on the staged tree"
  case $flags in
    *"-I$stage/usr/include"*"-L$stage/usr/lib"*) ;;
    *) fail "pkg-config kf3ds gives '$flags', not the staged tree's folders" ;;
  esac
  rflags=$(pc --libs kf3ds-render) || fail "pkg-config kf3ds-render failed on the staged tree"
  case $rflags in
    *-lkf3ds_render*-lkf3ds*) ;;
    *) fail "pkg-config kf3ds-render gives '$rflags'" ;;
  esac
  # shellcheck disable=SC2086 # the flags are words
  $cc -std=c11 $ldflags -o "$tmp/play" examples/play.c $flags 2> "$tmp/cc.log" ||
    { cat "$tmp/cc.log" >&2; fail "examples/play.c does not build against the staged tree"; }
  LD_LIBRARY_PATH=$stage/usr/lib "$tmp/play" data/arm.3ds > "$tmp/play.out" 2>&1 ||
    { cat "$tmp/play.out" >&2; fail "play built against the staged tree failed"; }
else
  echo "$me: note: no pkg-config; the staged build of examples/play.c is not checked"
fi

$make -s --no-print-directory uninstall BUILD="$build" DESTDIR="$stage" PREFIX=/usr \
  > "$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log" >&2; fail "make uninstall failed"; }
left=$(find "$stage" -mindepth 1 2> /dev/null)
[ -z "$left" ] || fail "make uninstall left behind: $(echo $left)"
echo "$me: make install put $count files under DESTDIR, play built against them with" \
  "pkg-config ran, make uninstall removed everything"
