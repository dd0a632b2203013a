// What the three.js checks share (check_three.mjs, check_editor.mjs): three.js
// and its GLTFLoader from the npm folder (KF3DS_NPM, else build/npm; make
// npm-tools), and a kf3ds .glb loaded by it with its images dropped first
// (Node has no image decoder, and the checks need no pixels).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const npm = process.env.KF3DS_NPM || 'build/npm';
const mod = (p) => import(pathToFileURL(path.resolve(npm, 'node_modules', p)).href);
export const THREE = await mod('three/build/three.module.js');
const { GLTFLoader } = await mod('three/examples/jsm/loaders/GLTFLoader.js');

// A function that prints `WHO: message` and exits with status 2.
export function failWith(who) {
  return (msg) => {
    console.error(`${who}: ${msg}`);
    process.exit(2);
  };
}

// The .glb's JSON without images, textures and samplers, with its BIN chunk.
function withoutImages(bytes, fail) {
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

// The glTF of the .glb at glbPath as GLTFLoader parses it; `fail` on error.
export async function loadGlb(glbPath, fail) {
  return new Promise((resolve, reject) =>
    new GLTFLoader().parse(withoutImages(fs.readFileSync(glbPath), fail), '', resolve, reject)
  ).catch((e) => fail(`${glbPath}: ${e && e.message ? e.message : e}`));
}
