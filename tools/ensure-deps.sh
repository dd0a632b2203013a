#!/bin/sh
# Installs the Debian packages given as arguments when one is missing (as root),
# or stops with the exact command to type.
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "kf3ds: installing$missing"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null && exit 0
  echo "kf3ds: apt-get install failed" >&2; exit 1
fi
echo "kf3ds: missing Debian packages:$missing" >&2
echo "  run: sudo apt-get install -y$missing" >&2
exit 1
