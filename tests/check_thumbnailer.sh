#!/bin/sh
# The freedesktop thumbnailer entry (tools/kf3ds.thumbnailer.in) and the MIME
# type it names: its Exec line, with %i %o %s filled in as a file manager
# does (and the installed kf3ds replaced by the one built), writes a PNG of
# that size; MimeType is the type shared-mime-info gives .3ds files
# (image/x-3ds) and the one tools/kf3ds-mime.xml declares with *.3ds.
#   sh tests/check_thumbnailer.sh [KF3DS]
set -u
tool=${1:-build/kf3ds}
me=check_thumbnailer
entry=tools/kf3ds.thumbnailer.in
mime=tools/kf3ds-mime.xml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-thumbnailer-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$me: $*" >&2; exit 1; }

head -n 1 "$entry" | grep -qx '\[Thumbnailer Entry\]' || fail "$entry: no [Thumbnailer Entry] group"
type=$(sed -n 's/^MimeType=\(.*\);$/\1/p' "$entry")
[ "$type" = image/x-3ds ] || fail "$entry: MimeType '$type', not image/x-3ds"
grep -q "<mime-type type=\"$type\">" "$mime" || fail "$mime does not declare $type"
grep -q '<glob pattern="\*.3ds"/>' "$mime" || fail "$mime: no *.3ds glob"
shared=/usr/share/mime/packages/freedesktop.org.xml
if [ -r "$shared" ]; then
  grep -q "<mime-type type=\"$type\">" "$shared" || fail "shared-mime-info has no $type"
fi
if command -v xmllint > /dev/null 2>&1; then
  xmllint --noout "$mime" || fail "$mime is not well-formed XML"
fi

exec_line=$(sed -n 's/^Exec=//p' "$entry")
[ -n "$exec_line" ] || fail "$entry: no Exec line"
cp data/arm.3ds "$tmp/my scene.3ds"
out="$tmp/thumb out.png"
# fill in the codes as a file manager does; each path stays one word
set -f
set -- $exec_line
set +f
[ "$1" = @PREFIX@/bin/kf3ds ] || fail "Exec runs '$1', not @PREFIX@/bin/kf3ds"
shift
for w in "$@"; do
  case $w in
    %i) w="$tmp/my scene.3ds" ;;
    %o) w=$out ;;
    %s) w=128 ;;
  esac
  set -- "$@" "$w"
done
# "$@" now holds the words twice: the originals first
n=$(( $# / 2 ))
i=0
while [ $i -lt $n ]; do shift; i=$((i + 1)); done
"$tool" "$@" > "$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; fail "the Exec line failed: kf3ds $*"; }
[ -s "$out" ] || fail "the Exec line wrote no picture"
sig=$(head -c 8 "$out" | od -An -tx1 | tr -d ' \n')
[ "$sig" = 89504e470d0a1a0a ] || fail "the picture is not a PNG"
dims=$(od -An -tu1 -j 16 -N 8 "$out" | tr -s ' ' | sed 's/^ //')
[ "$dims" = "0 0 0 128 0 0 0 128" ] || fail "the picture is not 128x128 (IHDR: $dims)"
# Tumbler (Thunar's thumbnailer service) creates %o empty, runs Exec and
# reads the picture back through the file it still holds open: the picture
# must land in that same file, not in one renamed over it.
held="$tmp/held.png"
: > "$held"
exec 3< "$held"
"$tool" thumbnail "$tmp/my scene.3ds" "$held" 96 -q || fail "thumbnail into an empty placeholder failed"
sig=$(head -c 8 <&3 | od -An -tx1 | tr -d ' \n')
exec 3<&-
[ "$sig" = 89504e470d0a1a0a ] ||
  fail "the picture did not reach the placeholder file held open (read back: '$sig')"
echo "$me: Exec=$exec_line writes a 128x128 PNG, into the file a thumbnailer holds open; MimeType $type"
