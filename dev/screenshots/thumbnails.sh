#!/bin/sh
# dev/screenshots/thumbnails.sh [OUT.png]: the README's picture of a folder of
# .3ds files in a file manager that shows them through kf3ds's freedesktop
# thumbnailer (docs/img/thumbnails.png). Not run by make test.
#
# It installs kf3ds into a staging prefix (make install PREFIX=STAGE, so the
# .thumbnailer entry's Exec names the staged command, and the data folders
# searched, XDG_DATA_DIRS, start with STAGE/share), fills a folder with the
# .3ds files of data/ and of the corpus when it is there (their texture maps
# in a hidden folder named by KF3DS_MAPS, so that only scenes show), opens it
# in Thunar under Xvfb in its icon view with a fresh HOME (Thunar asks the
# tumbler service, whose desktop-thumbnailer plugin runs .thumbnailer
# entries), waits until the thumbnail cache holds a picture of every file or
# their number stops growing (Thunar asks for the files in view), and takes
# a screenshot of the window with ImageMagick's import. Run as
# root, Thunar runs as nobody (as root it shows a warning bar).
#
# Needs: apt-get install xvfb thunar tumbler imagemagick xdotool (not in CI:
# the picture is committed, the script only remakes it).
# Environment: KF3DS_CORPUS (../shared/corpus), THUMB_FILES (the most files
# taken, 40), THUMB_SIZE (the window, 1024x720), THUMB_WAIT (the most seconds
# waited for the thumbnails in each of the two windows, 180). Measured: 75 s
# (the two windows settle in about 30 and 20 s), on a contended machine.
set -u
out=${1:-docs/img/thumbnails.png}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
corpus=${KF3DS_CORPUS:-../shared/corpus}
max=${THUMB_FILES:-40}
size=${THUMB_SIZE:-1024x720}
wait_s=${THUMB_WAIT:-180}
me=thumbnails.sh
for t in Xvfb thunar import xdotool dbus-run-session; do
  command -v "$t" > /dev/null 2>&1 || {
    echo "$me: no $t: apt-get install xvfb thunar tumbler imagemagick xdotool dbus-bin" >&2
    exit 77
  }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kf3ds-thumbs-XXXXXX") || exit 1
chmod 755 "$tmp"
xpid=
cleanup() {
  [ -n "$xpid" ] && kill "$xpid" 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

stage=$tmp/stage
make -s install PREFIX="$stage" > "$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; echo "$me: make install failed" >&2; exit 1; }
# the staged MIME package beside the system's (image/x-3ds for *.3ds)
command -v update-mime-database > /dev/null 2>&1 &&
  update-mime-database "$stage/share/mime" > /dev/null 2>&1

# the folder: scenes only (maps hidden in .maps), names as the archives have them
dir=$tmp/"3ds files"
mkdir -p "$dir/.maps"
n=0
for f in data/*.3ds "$corpus"/*.3ds "$corpus"/*.3DS; do
  [ -f "$f" ] || continue
  [ "$n" -lt "$max" ] || break
  cp "$f" "$dir/"
  n=$((n + 1))
done
for f in data/*.bmp data/*.cel "$corpus"/*.jpg "$corpus"/*.png "$corpus"/*.bmp; do
  if [ -f "$f" ]; then cp "$f" "$dir/.maps/"; fi
done
echo "$me: $n files"

# a fresh HOME: Thunar's icon view at 128 pixels, thumbnails for every file
home=$tmp/home
w=${size%x*} h=${size#*x}
conf=$home/.config/xfce4/xfconf/xfce-perchannel-xml
mkdir -p "$conf" "$home/.cache"
cat > "$conf/thunar.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<channel name="thunar" version="1.0">
  <property name="last-view" type="string" value="ThunarIconView"/>
  <property name="last-icon-view-zoom-level" type="string" value="THUNAR_ZOOM_LEVEL_200_PERCENT"/>
  <property name="misc-thumbnail-mode" type="string" value="THUNAR_THUMBNAIL_MODE_ALWAYS"/>
  <property name="last-window-width" type="int" value="$w"/>
  <property name="last-window-height" type="int" value="$h"/>
  <property name="last-window-maximized" type="bool" value="false"/>
  <property name="last-show-hidden" type="bool" value="false"/>
  <property name="last-statusbar-visible" type="bool" value="true"/>
</channel>
EOF
chmod -R a+rX "$tmp"
as_user=
if [ "$(id -u)" -eq 0 ]; then
  chown -R nobody "$home"
  as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
fi

display=:$((90 + $$ % 100))
Xvfb "$display" -screen 0 "$((w + 64))x$((h + 64))x24" -nolisten tcp > "$tmp/xvfb.log" 2>&1 &
xpid=$!
sleep 2
t0=$(date +%s)
# shellcheck disable=SC2086  # as_user is a command and its words
env HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache" \
  XDG_DATA_HOME="$home/.local/share" XDG_DATA_DIRS="$stage/share:/usr/local/share:/usr/share" \
  KF3DS_MAPS="$dir/.maps" DISPLAY="$display" \
  $as_user dbus-run-session -- sh -c '
    # Thunar asks for the files in view only: wait until every file has a
    # thumbnail, or their number has not grown for 20 s (after the first),
    # or the time given
    settle() {
      i=0 got=0 last=0 same=0
      while [ $i -lt $(($5 * 2)) ]; do
        got=$(find "$3" -name "*.png" ! -path "*/fail/*" 2> /dev/null | wc -l)
        [ "$got" -ge "$4" ] && break
        if [ "$got" -gt 0 ] && [ "$got" -eq "$last" ]; then same=$((same + 1)); else same=0; fi
        [ $same -ge 40 ] && break
        last=$got
        sleep 0.5; i=$((i + 1))
      done
      echo "thumbnails.sh: $got thumbnails of the $4 files after $((i / 2)) s"
    }
    # A few requests of the first window come to nothing (one to three files
    # a run, different ones each time, when this was written); a second
    # window, with the failure marks of tumbler removed, asks for them again.
    thunar "$1" > "$2/home/thunar.log" 2>&1 &
    pm=$!
    settle "$@"
    kill $pm 2> /dev/null
    wait $pm 2> /dev/null
    rm -rf "$3/fail"
    thunar "$1" >> "$2/home/thunar.log" 2>&1 &
    pm=$!
    settle "$@"
    sleep 3   # the window redraws with the last ones
    win=$(xdotool search --onlyvisible --class thunar | tail -n 1)
    if [ -n "$win" ]; then
      xdotool windowmove "$win" 0 0
      sleep 1
      # fewer colours keep the committed PNG small (README pictures < 300 KB)
      import -window "$win" -strip -colors 256 "PNG8:$2/home/shot.png"
    else
      echo "thumbnails.sh: no Thunar window" >&2
    fi
    kill $pm 2> /dev/null
    wait $pm 2> /dev/null
  ' sh "$dir" "$tmp" "$home/.cache/thumbnails" "$n" "$wait_s" > "$tmp/session.log" 2>&1
grep -h "^thumbnails.sh: " "$tmp/session.log"
[ -s "$home/shot.png" ] || {
  cat "$tmp/session.log" "$home/thunar.log" >&2; echo "$me: no screenshot" >&2; exit 1; }
# the thumbnailer runs it could not finish, by the lines kf3ds printed
grep -h "^kf3ds: " "$tmp/session.log" >&2
cp "$home/shot.png" "$out" || exit 1
echo "$me: wrote $out ($(wc -c < "$out") bytes) in $(( $(date +%s) - t0 )) s"
