// Plays a kf3ds export in three.js (GLTFLoader + AnimationMixer, an
// independent glTF reader) and compares every kf3ds node's world-space
// vertex box with the reference the test wrote from the library.
//   node tests/gltf/check_three.mjs OUT.glb REF.json [nlerp]
// With `nlerp`, LINEAR rotation channels are played as readers that
// interpolate the quaternion's components and normalise (Blender's glTF
// importer makes them per-component F-curves) instead of three.js's slerp.
// REF.json: {"fps", "first", "extent", "samples": [{"frame", "nodes":
// [[index, hidden, minx, miny, minz, maxx, maxy, maxz], ...]}]} in 3DS space.
// Prints one line:
//   worst_integer D (node I frame F) worst_half D (node I frame F) samples N time_noise T
// where D is the largest box difference divided by the extent; for a
// hidden node the box's own size counts (three.js has it collapsed). T is
// how far float32 key times alone may move a vertex (of the extent).
// Exit status 0, or 2 when the file cannot be read. Images are dropped
// before loading (Node has no image decoder; the boxes do not need them;
// three_load.mjs).
import fs from 'node:fs';
import { THREE, failWith, loadGlb } from './three_load.mjs';

const fail = failWith('check_three');

const [glbPath, refPath, mode] = process.argv.slice(2);
if (!glbPath || !refPath) fail('usage: check_three.mjs OUT.glb REF.json');
const ref = JSON.parse(fs.readFileSync(refPath, 'utf8'));
const gltf = await loadGlb(glbPath, fail);

const scene = gltf.scene;
const marked = new Map();
scene.traverse((o) => {
  if (o.userData && o.userData.kf3ds_index !== undefined) marked.set(o.userData.kf3ds_index, o);
});
// Component-wise lerp, then normalised (docs/gltf.md, rule 38).
class NlerpInterpolant extends THREE.Interpolant {
  interpolate_(i1, t0, t, t1) {
    const r = this.resultBuffer, v = this.sampleValues, s = this.valueSize;
    const a = (t - t0) / (t1 - t0), o1 = i1 * s, o0 = o1 - s;
    let n = 0;
    for (let k = 0; k < s; k++) {
      r[k] = v[o0 + k] + (v[o1 + k] - v[o0 + k]) * a;
      n += r[k] * r[k];
    }
    n = Math.sqrt(n) || 1;
    for (let k = 0; k < s; k++) r[k] /= n;
    return r;
  }
}
if (mode === 'nlerp')
  for (const clip of gltf.animations)
    for (const track of clip.tracks)
      if (track instanceof THREE.QuaternionKeyframeTrack && track.getInterpolation() === THREE.InterpolateLinear)
        track.createInterpolant = function (result) {
          return new NlerpInterpolant(this.times, this.values, this.getValueSize(), result);
        };
const mixer = new THREE.AnimationMixer(scene);
for (const clip of gltf.animations) {
  const action = mixer.clipAction(clip);
  action.setLoop(THREE.LoopOnce, 1);
  action.clampWhenFinished = true;
  action.play();
}

const v = new THREE.Vector3();
// The world box of node o's meshes, not entering other kf3ds nodes, in 3DS
// axes (glTF x, y, z = 3DS x, z, -y); null when it has none.
function box(o) {
  const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  let any = false;
  const visit = (n) => {
    if ((n.isMesh || n.isPoints) && n.geometry) {
      const pos = n.geometry.attributes.position;
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(n.matrixWorld);
        const p = [v.x, -v.z, v.y];
        for (let k = 0; k < 3; k++) {
          if (p[k] < b[k]) b[k] = p[k];
          if (p[k] > b[k + 3]) b[k + 3] = p[k];
        }
        any = true;
      }
    }
    for (const c of n.children) if (c.userData.kf3ds_index === undefined) visit(c);
  };
  visit(o);
  return any ? b : null;
}

const worst = { integer: [0, -1, 0], half: [0, -1, 0] };
let samples = 0;
for (const s of ref.samples) {
  mixer.setTime((s.frame - ref.first) / ref.fps);
  scene.updateMatrixWorld(true);
  const kind = Number.isInteger(s.frame) ? 'integer' : 'half';
  for (const [index, hidden, ...want] of s.nodes) {
    const o = marked.get(index);
    if (!o) fail(`${glbPath}: no node with kf3ds_index ${index}`);
    const got = box(o);
    let d;
    if (!got) d = hidden ? 0 : Infinity;
    else if (hidden) d = Math.max(got[3] - got[0], got[4] - got[1], got[5] - got[2]);
    else d = Math.max(...want.map((w, k) => Math.abs(w - got[k])));
    d /= ref.extent;
    if (!(d <= worst[kind][0])) worst[kind] = [d, index, s.frame];
    samples++;
  }
}
// The float noise of the times: a key's time is a float32 number of
// seconds, off by up to half a unit in the last place, which moves a vertex
// by its speed times that. The speed is the largest change of a reference
// box between neighbouring instants, over their time apart.
let speed = 0, tmax = 0;
for (let k = 1; k < ref.samples.length; k++) {
  const a = ref.samples[k - 1], b = ref.samples[k];
  const dt = (b.frame - a.frame) / ref.fps;
  tmax = Math.max(tmax, (b.frame - ref.first) / ref.fps);
  if (!(dt > 0)) continue;
  const prev = new Map(a.nodes.map((n) => [n[0], n]));
  for (const n of b.nodes) {
    const m = prev.get(n[0]);
    if (!m || m[1] || n[1]) continue;
    for (let c = 2; c < 8; c++) speed = Math.max(speed, Math.abs(n[c] - m[c]) / dt);
  }
}
const halfUlp = tmax > 0 ? 2 ** (Math.floor(Math.log2(tmax)) - 24) : 0;
const timeNoise = (speed * halfUlp) / ref.extent;
const show = (w) => `${w[0].toExponential(3)} (node ${w[1]} frame ${w[2]})`;
console.log(`worst_integer ${show(worst.integer)} worst_half ${show(worst.half)} samples ${samples} time_noise ${timeNoise.toExponential(3)}`);
