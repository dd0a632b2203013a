// Reads a kf3ds export with three.js (GLTFLoader, an independent glTF reader)
// and prints its cameras and lights as three.js places them in its Y-up
// world, one line each, for tests/front/test_png_export.c to compare with
// hand-derived values:
//   camera NAME fov_degrees aspect near px py pz qx qy qz qw
//   light NAME TYPE r g b intensity px py pz dx dy dz angle penumbra
// (d the direction a spot shines, angle and penumbra three.js's; 0 for points).
//   node tests/gltf/check_editor.mjs OUT.glb
// Exit status 0, or 2 when the file cannot be read. Images are dropped
// before loading (Node has no image decoder).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const npm = process.env.KF3DS_NPM || 'build/npm';
const mod = (p) => import(pathToFileURL(path.resolve(npm, 'node_modules', p)).href);
const THREE = await mod('three/build/three.module.js');
const { GLTFLoader } = await mod('three/examples/jsm/loaders/GLTFLoader.js');

function fail(msg) {
  console.error(`check_editor: ${msg}`);
  process.exit(2);
}

// The .glb's JSON without images, textures and samplers, with its BIN chunk.
function withoutImages(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) fail('not a .glb');
  const jsonLen = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLen)));
  const rest = bytes.subarray(20 + jsonLen);
  delete json.images;
  delete json.textures;
  delete json.samplers;
  for (const m of json.materials || []) if (m.pbrMetallicRoughness) delete m.pbrMetallicRoughness.baseColorTexture;
  let text = JSON.stringify(json);
  while (text.length % 4) text += ' ';
  const jb = new TextEncoder().encode(text);
  const out = new Uint8Array(20 + jb.length + rest.length);
  const o = new DataView(out.buffer);
  o.setUint32(0, 0x46546c67, true);
  o.setUint32(4, 2, true);
  o.setUint32(8, out.length, true);
  o.setUint32(12, jb.length, true);
  o.setUint32(16, 0x4e4f534a, true);
  out.set(jb, 20);
  out.set(rest, 20 + jb.length);
  return out.buffer;
}

const [glbPath] = process.argv.slice(2);
if (!glbPath) fail('usage: check_editor.mjs OUT.glb');
const gltf = await new Promise((resolve, reject) =>
  new GLTFLoader().parse(withoutImages(fs.readFileSync(glbPath)), '', resolve, reject)
).catch((e) => fail(`${glbPath}: ${e && e.message ? e.message : e}`));

const scene = gltf.scene;
scene.updateMatrixWorld(true);
const f = (v) => (Math.abs(v) < 5e-10 ? 0 : v).toPrecision(9);
const p = new THREE.Vector3();
const q = new THREE.Quaternion();
const d = new THREE.Vector3();
scene.traverse((o) => {
  // GLTFLoader names a node's camera or light after the node.
  if (o.isPerspectiveCamera) {
    o.getWorldPosition(p);
    o.getWorldQuaternion(q);
    console.log(['camera', o.name, f(o.fov), f(o.aspect), f(o.near), f(p.x), f(p.y), f(p.z),
                 f(q.x), f(q.y), f(q.z), f(q.w)].join(' '));
  } else if (o.isLight) {
    o.getWorldPosition(p);
    d.set(0, 0, 0);
    if (o.isSpotLight) {
      o.target.updateMatrixWorld(true);
      o.target.getWorldPosition(d);
      d.sub(p).normalize();
    }
    console.log(['light', o.name, o.isSpotLight ? 'spot' : o.isPointLight ? 'point' : o.type,
                 f(o.color.r), f(o.color.g), f(o.color.b), f(o.intensity), f(p.x), f(p.y), f(p.z),
                 f(d.x), f(d.y), f(d.z), f(o.angle || 0), f(o.penumbra || 0)].join(' '));
  }
});
