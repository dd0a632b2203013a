#!/bin/sh
# web_page.sh WEB_DIR — writes WEB_DIR/index.html: web/index.html with its
# style sheet, kf3ds.mjs, web/viewer.mjs and WEB_DIR/kf3ds.wasm (base64) inside,
# so that the one file works opened from disk (file://), where browsers load no
# module script and fetch no .wasm, and from any static server, with no
# network (docs/web.md, "The page"). Run by `make web` (mk/wasm.mk).
set -e
dir=${1:?usage: web_page.sh WEB_DIR}
out="$dir/index.html"
for f in web/index.html web/viewer.css web/viewer.mjs "$dir/kf3ds.mjs" "$dir/kf3ds.wasm"; do
  [ -f "$f" ] || { echo "web_page.sh: $f is missing" >&2; exit 1; }
done
# The scripts go inline: nothing in them may end the <script> element.
if grep -qi '</script\|<!--' web/viewer.mjs "$dir/kf3ds.mjs"; then
  echo "web_page.sh: a script holds '</script' or '<!--'; it cannot go inline" >&2
  exit 1
fi
# An ES module's exports as plain declarations inside a function.
unexport() {
  sed -e 's/^export default .*$//' -e 's/^export //' "$1"
}
tmp="$out.tmp"
{
  sed -n '1,/<link rel="stylesheet" href="viewer.css">/p' web/index.html | sed '$d'
  echo '<style>'
  cat web/viewer.css
  echo '</style>'
  sed -n '/<link rel="stylesheet" href="viewer.css">/,/<!-- kf3ds:script/p' web/index.html |
    sed -e '1d' -e '$d'
  echo '<script type="module">'
  printf 'const kf3dsWasm = Uint8Array.from(atob("'
  base64 -w0 "$dir/kf3ds.wasm"
  echo '"), (c) => c.charCodeAt(0));'
  echo 'const kf3ds = (() => {'
  unexport "$dir/kf3ds.mjs"
  # (what its default export lists, decodeCel and the rest)
  sed -n 's/^export default \({.*}\);$/return \1;/p' "$dir/kf3ds.mjs"
  echo '})();'
  echo 'const startViewer = (() => {'
  unexport web/viewer.mjs
  echo 'return startViewer;'
  echo '})();'
  echo 'startViewer(kf3ds, kf3dsWasm);'
  echo '</script>'
  sed -n '/<!-- \/kf3ds:script -->/,$p' web/index.html | sed '1d'
} > "$tmp"
mv "$tmp" "$out"
echo "$out: $(wc -c < "$out") bytes, the page with kf3ds.wasm inside; open it in a browser"
