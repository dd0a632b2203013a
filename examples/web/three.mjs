// three.mjs — examples/web/three.html (docs/web.md, "three.js"): a dropped .3ds
// played by three.js. kf3ds reads the file and exports it as glTF in the page
// (scene.exportGlb, the bytes `kf3ds export --embed-images` writes); three.js's
// GLTFLoader reads that and its AnimationMixer plays the keyframer animation
// at the export's frame rate. This is the route three.js's own TDSLoader
// lacks: it reads no keyframer. `make web-three` bundles this with three.js
// and kf3ds.wasm into build/web/three.html, which works opened from disk.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import * as kf3ds from '../../web/kf3ds.mjs';

const MAX_FILE = 100 * 1024 * 1024; // as the kf3ds page: larger files are refused
const SCENE_EXT = /\.(3ds|prj|mli)$/i;

const $ = (id) => document.getElementById(id);
const ui = {
  drop: $('drop'), files: $('files'), view: $('view'), play: $('play'),
  timeline: $('timeline'), frame: $('frame'), camera: $('camera'), message: $('message'),
  status: $('status'),
};

// What is shown: the export's timeline (asset.extras.kf3ds, docs/gltf.md rule 3)
// and where in it we are, in seconds of the clip.
const st = {
  file: '', model: null, cameras: [], mixer: null, action: null, fps: 30, start: 0, end: 0,
  time: 0, playing: false, last: 0, warnings: [],
};
let shown = 0; // files shown or refused so far (body's data-shown, for tests)
const done = () => { document.body.dataset.shown = String(++shown); };

function say(text, isError) {
  ui.message.textContent = text;
  ui.message.className = isError ? 'error' : '';
}

// ---- three.js ------------------------------------------------------------------
const world = new THREE.Scene();
world.background = new THREE.Color(0x333333);
// glTF's punctual lights are in physical units (a 3DS light of multiplier 1 is
// 1 candela, docs/gltf.md rule 23): too dim to show a model by. A sky light and a
// light at the viewer make every file visible.
world.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2));
const orbit = new THREE.PerspectiveCamera(45, 4 / 3, 0.1, 1000);
const headlight = new THREE.DirectionalLight(0xffffff, 1.5);
orbit.add(headlight);
world.add(orbit);
let renderer = null, controls = null;
try {
  renderer = new THREE.WebGLRenderer({ canvas: ui.view, antialias: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(ui.view.clientWidth || 800, ui.view.clientHeight || 600, false);
  controls = new OrbitControls(orbit, ui.view);
} catch (e) {
  // The animation is still played (and can be read back); nothing is drawn.
  ui.status.textContent = `no WebGL here (${e.message}): the animation runs, nothing is drawn`;
}

function dispose(root) {
  root.traverse((o) => {
    o.geometry?.dispose();
    for (const m of [].concat(o.material || [])) {
      for (const v of Object.values(m))
        if (v && v.isTexture)
          v.dispose();
      m.dispose();
    }
  });
}

// Puts the orbit view where the whole model (at the shown frame) is in sight.
function frameModel() {
  const box = new THREE.Box3().setFromObject(st.model);
  if (box.isEmpty())
    return;
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  const centre = box.getCenter(new THREE.Vector3());
  orbit.near = size / 1000;
  orbit.far = size * 100;
  orbit.position.copy(centre).add(new THREE.Vector3(0.8, 0.6, 1).multiplyScalar(size));
  orbit.lookAt(centre);
  orbit.updateProjectionMatrix();
  if (controls) {
    controls.target.copy(centre);
    controls.update();
  }
}

// ---- the timeline ------------------------------------------------------------
const duration = () => (st.action ? st.action.getClip().duration : 0);

// Shows the clip at `time` seconds: the mixer evaluates every track there.
function show(time) {
  st.time = Math.min(Math.max(time, 0), duration());
  if (st.action) {
    st.action.enabled = true;
    st.action.paused = false;
    st.action.time = st.time;
    st.mixer.update(0);
  }
  const frame = st.start + st.time * st.fps;
  ui.timeline.value = String(frame);
  ui.frame.textContent = `frame ${frame.toFixed(2)}`;
}

function setPlaying(on) {
  st.playing = on && !!st.action;
  ui.play.textContent = st.playing ? 'pause' : 'play';
  st.last = performance.now();
}

function tick(now) {
  if (st.playing) {
    // Real time at the export's frame rate, looping over the segment.
    const d = duration();
    let t = st.time + (now - st.last) / 1000;
    if (t > d)
      t = d > 0 ? t % d : 0;
    show(t);
  }
  st.last = now;
  if (renderer) {
    const cam = st.cameras[Number(ui.camera.value)] || orbit;
    renderer.render(world, cam);
  }
  requestAnimationFrame(tick);
}

// ---- files ---------------------------------------------------------------------
async function open(files) {
  files = [...files];
  const sceneFile = files.find((f) => SCENE_EXT.test(f.name)) || files[0];
  if (!sceneFile)
    return;
  try {
    if (sceneFile.size > MAX_FILE) {
      say(`${sceneFile.name} is ${(sceneFile.size / 1048576).toFixed(1)} MB: files over ` +
        '100 MB are refused here', true);
      return;
    }
    // The other files are the texture maps candidates, found by name as the
    // command finds them beside the input (docs/web.md, "scene.exportGlb").
    const images = {};
    for (const f of files)
      if (f !== sceneFile && f.size <= MAX_FILE)
        images[f.name] = new Uint8Array(await f.arrayBuffer());
    const bytes = new Uint8Array(await sceneFile.arrayBuffer());
    const warnings = [];
    let glb, problem = '';
    const scene = kf3ds.load(bytes, { fileName: sceneFile.name });
    try {
      if (!scene.ok)
        problem = `${sceneFile.name} is damaged: ${scene.error.message}; playing what could be read`;
      glb = scene.exportGlb({ images, embedImages: true, onWarning: (m) => warnings.push(m) });
    } finally {
      scene.free();
    }
    const gltf = await new GLTFLoader().parseAsync(glb.buffer.slice(glb.byteOffset,
      glb.byteOffset + glb.byteLength), '');
    replace(sceneFile.name, gltf, warnings);
    say(problem || [`${sceneFile.name}: ${st.action ? 'playing' : 'no animation: shown as it is'}`,
      ...warnings].join('\n'), !!problem);
  } catch (e) {
    say(e.message, true);
  } finally {
    done();
  }
}

function replace(name, gltf, warnings) {
  if (st.model) {
    world.remove(st.model);
    dispose(st.model);
    st.mixer?.stopAllAction();
  }
  const info = gltf.parser.json.asset?.extras?.kf3ds || {};
  st.file = name;
  st.model = gltf.scene;
  st.warnings = warnings;
  st.fps = info.fps > 0 ? info.fps : 30;
  st.start = Number.isFinite(info.segment_start) ? info.segment_start : 0;
  st.end = Number.isFinite(info.segment_end) ? info.segment_end : st.start;
  st.mixer = new THREE.AnimationMixer(gltf.scene);
  st.action = null;
  const clip = gltf.animations[0];
  if (clip) {
    // One pass, held at its end (LoopOnce + clamp): the page loops itself, so
    // that the last frame shows the last frame's pose, not the first's.
    st.action = st.mixer.clipAction(clip);
    st.action.setLoop(THREE.LoopOnce, 1);
    st.action.clampWhenFinished = true;
    st.action.play();
  }
  world.add(gltf.scene);
  st.cameras = gltf.cameras;
  ui.camera.length = 1;
  gltf.cameras.forEach((c, i) => ui.camera.add(new Option(c.name || `camera ${i + 1}`, i)));
  for (const c of gltf.cameras) {
    c.aspect = ui.view.width / ui.view.height;
    c.updateProjectionMatrix();
  }
  ui.timeline.min = String(st.start);
  ui.timeline.max = String(st.end);
  ui.timeline.disabled = !st.action;
  ui.play.disabled = !st.action;
  show(0);
  frameModel();
  setPlaying(!!st.action);
  ui.status.textContent = `${gltf.parser.json.nodes?.length || 0} glTF nodes, ` +
    `${clip ? clip.tracks.length : 0} animated channels, frames ${st.start}..${st.end} ` +
    `at ${st.fps} fps`;
}

ui.files.addEventListener('change', () => open(ui.files.files));
ui.drop.addEventListener('dragover', (e) => { e.preventDefault(); ui.drop.classList.add('over'); });
ui.drop.addEventListener('dragleave', () => ui.drop.classList.remove('over'));
ui.drop.addEventListener('drop', (e) => {
  e.preventDefault();
  ui.drop.classList.remove('over');
  open(e.dataTransfer.files);
});
ui.play.addEventListener('click', () => setPlaying(!st.playing));
ui.timeline.addEventListener('input', () => {
  setPlaying(false);
  show((Number(ui.timeline.value) - st.start) / st.fps);
});
document.addEventListener('keydown', (e) => {
  if (e.key === ' ' && e.target.tagName !== 'INPUT' && e.target.tagName !== 'SELECT') {
    e.preventDefault();
    setPlaying(!st.playing);
  }
});

// For scripts and tests (tests/web-page/three.test.mjs): the clip's state, a
// frame to show, and each kf3ds node's world position as three.js has it
// (glTF's Y-up axes: 3DS's (x, y, z) is (x, z, −y), docs/gltf.md rule 1).
window.kf3dsThree = {
  state: () => ({ file: st.file, fps: st.fps, start: st.start, end: st.end, time: st.time,
    frame: st.start + st.time * st.fps, playing: st.playing, duration: duration(),
    webgl: !!renderer, warnings: st.warnings }),
  seek(frame) {
    setPlaying(false);
    show((frame - st.start) / st.fps);
  },
  play: (on) => setPlaying(on),
  nodes() {
    const out = [];
    if (!st.model)
      return out;
    st.model.updateMatrixWorld(true);
    st.model.traverse((o) => {
      if (Number.isInteger(o.userData?.kf3ds_index)) {
        const p = o.getWorldPosition(new THREE.Vector3());
        out.push({ index: o.userData.kf3ds_index, name: o.name, position: [p.x, p.y, p.z] });
      }
    });
    return out;
  },
};

// (No top-level await: the bundle runs each module inside a function.)
kf3ds.init(typeof KF3DS_WASM === 'undefined' ? undefined : KF3DS_WASM).then(() => {
  requestAnimationFrame(tick);
  document.body.dataset.ready = '1';
}, (e) => say(`kf3ds.wasm did not load: ${e.message}`, true));
