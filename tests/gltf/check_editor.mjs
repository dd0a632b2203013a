// Reads a kf3ds export with three.js (GLTFLoader, an independent glTF reader)
// and prints its cameras and lights as three.js places them in its Y-up
// world, one line each, for tests/front/test_png_export.c to compare with
// hand-derived values:
//   camera NAME fov_degrees aspect near px py pz qx qy qz qw
//   light NAME TYPE r g b intensity px py pz dx dy dz angle penumbra
// (d the direction a spot shines, angle and penumbra three.js's; 0 for points).
//   node tests/gltf/check_editor.mjs OUT.glb
// Exit status 0, or 2 when the file cannot be read. Images are dropped
// before loading (Node has no image decoder; three_load.mjs).
import { THREE, failWith, loadGlb } from './three_load.mjs';

const fail = failWith('check_editor');

const [glbPath] = process.argv.slice(2);
if (!glbPath) fail('usage: check_editor.mjs OUT.glb');
const gltf = await loadGlb(glbPath, fail);

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
