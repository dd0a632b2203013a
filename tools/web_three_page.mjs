// web_three_page.mjs WEB_DIR NPM_DIR — writes WEB_DIR/three.html:
// examples/web/three.html with its script examples/web/three.mjs, three.js
// (three.module.js, three.core.js) and the GLTFLoader and OrbitControls of
// NPM_DIR/node_modules/three, web/kf3ds.mjs and WEB_DIR/kf3ds.wasm (base64)
// inside, so that the one file works opened from disk and offline (docs/web.md,
// "three.js"). Run by `make web-three` (mk/web-three.mk).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './esm_bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [webDir, npmDir] = process.argv.slice(2);
if (!webDir || !npmDir) {
  console.error('usage: node tools/web_three_page.mjs WEB_DIR NPM_DIR');
  process.exit(2);
}
const three = path.resolve(npmDir, 'node_modules', 'three');
const wasm = path.join(webDir, 'kf3ds.wasm');
const source = path.join(root, 'examples', 'web', 'three.html');
for (const f of [path.join(three, 'build', 'three.module.js'), wasm, source])
  if (!fs.existsSync(f)) {
    console.error(`web_three_page: ${f} is missing`);
    process.exit(1);
  }

// The specifiers three.js's examples use ('three', 'three/addons/...') and
// relative ones.
function resolve(spec, from) {
  if (spec === 'three')
    return path.join(three, 'build', 'three.module.js');
  if (spec.startsWith('three/addons/'))
    return path.join(three, 'examples', 'jsm', spec.slice('three/addons/'.length));
  if (spec.startsWith('./') || spec.startsWith('../'))
    return path.resolve(path.dirname(from), spec);
  throw new Error(`web_three_page: cannot resolve '${spec}' (from ${from})`);
}

const script = bundle(path.join(root, 'examples', 'web', 'three.mjs'), resolve);
// Inline, nothing in it may end the <script> element or open a comment.
if (/<\/script|<!--/i.test(script)) {
  console.error('web_three_page: the bundle holds "</script" or "<!--"; it cannot go inline');
  process.exit(1);
}
const version = JSON.parse(fs.readFileSync(path.join(three, 'package.json'), 'utf8')).version;
const license = fs.readFileSync(path.join(three, 'LICENSE'), 'utf8').trim();
const html = fs.readFileSync(source, 'utf8');
const open = html.indexOf('<!-- kf3ds:script'), close = html.indexOf('<!-- /kf3ds:script -->');
if (open < 0 || close < open) {
  console.error(`web_three_page: ${source} has no kf3ds:script markers`);
  process.exit(1);
}
const inline = '<script type="module">\n' +
  `/* three.js ${version} (npm "three": build/three.module.js, three.core.js, ` +
  'examples/jsm/loaders/GLTFLoader.js, utils/BufferGeometryUtils.js, utils/SkeletonUtils.js, ' +
  `controls/OrbitControls.js), bundled unchanged but for import/export lines:\n${license}\n*/\n` +
  `const KF3DS_WASM = Uint8Array.from(atob("${fs.readFileSync(wasm).toString('base64')}"), ` +
  '(c) => c.charCodeAt(0));\n' + script + '</script>\n';
const out = path.join(webDir, 'three.html');
fs.writeFileSync(`${out}.tmp`, html.slice(0, open) + inline +
  html.slice(close + '<!-- /kf3ds:script -->'.length).replace(/^\n/, ''));
fs.renameSync(`${out}.tmp`, out);
console.log(`${out}: ${fs.statSync(out).size} bytes, three.js ${version} and kf3ds.wasm inside; ` +
  'open it in a browser');
