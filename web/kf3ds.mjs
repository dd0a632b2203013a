// kf3ds.mjs — kf3ds in JavaScript (docs/web.md): reads 3D Studio .3ds files,
// evaluates their keyframe animation and renders them with the library's
// software rasterizer, all in kf3ds.wasm (the C library compiled to
// WebAssembly, web/kf3ds_wasm.c its glue). One ES module for Node.js 20 and
// browsers, no dependencies:
//
//   import * as kf3ds from './kf3ds.mjs';
//   await kf3ds.init();                       // kf3ds.wasm beside this file
//   const scene = kf3ds.load(bytes, { fileName: 'arm.3ds' });
//   const world = scene.eval(12.5);           // Float32Array, 16 per node
//   const rgba = scene.render({ width: 320, height: 240, frame: 12 });
//   const file = scene.save();                // Uint8Array, a .3ds file
//   scene.free();
//
// Every answer is the one the `kf3ds` command gives for the same file:
// eval the numbers of `kf3ds eval --json` bit for bit, render the pixels of
// `kf3ds render`, save the bytes of `kf3ds rewrite`.

const MAX_INPUT = 1024 * 1024 * 1024; // bytes, as the command's default limit
const MAX_SIDE = 16384;
const MAX_PIXELS = 32 * 1024 * 1024;
const MAX_FRAME = 1e9; // |frame| for render (the command's --frame limit)

const TRACK_KINDS = ['pos', 'rot', 'scl', 'fov', 'roll', 'col', 'morph', 'hot', 'fall', 'hide'];
const TRACK_VALUES = [3, 4, 3, 1, 1, 3, 0, 1, 1, 0];
const MAP_KINDS = ['texture1', 'texture2', 'opacity', 'bump', 'specular', 'shininess',
  'selfIllum', 'reflection'];
const OVERLAYS = { hierarchy: 0x01, pivots: 0x02, cameras: 0x04, lights: 0x08, grid: 0x10,
  names: 0x20 };
const SHADINGS = { smooth: 0, flat: 1, wire: 2, wireframe: 2 };
const BACKGROUNDS = ['none', 'bitmap', 'solid', 'gradient'];
const ATMOSPHERES = ['none', 'fog', 'layerFog', 'distanceCue'];
const SAVE_CANONICAL = 0x01, SAVE_DROP_UNKNOWN = 0x04, SAVE_NO_KEYFRAMER = 0x08,
  SAVE_SEGMENT = 0x10;
const EVAL_NO_EASE = 0x1;
const R_ORBIT = 0x01, R_CULL = 0x02, R_NO_ENV = 0x04, R_NO_EASE = 0x08, R_NO_LABEL = 0x10,
  R_NO_LIGHTS = 0x20, R_FOLLOW = 0x40, R_PATHS = 0x80;
// kfw_get's element kinds and kfw_str's strings (web/kf3ds_wasm.c).
const G = { SCENE: 0, DIAG: 1, NODE: 2, TRACK: 3, KEY: 4, MESH: 5, MATERIAL: 6, MAP: 7,
  CAMERA: 8, LIGHT: 9, ENVIRONMENT: 10 };
const S = { NODE_NAME: 0, NODE_INSTANCE: 1, MESH_NAME: 2, MATERIAL_NAME: 3, CAMERA_NAME: 4,
  LIGHT_NAME: 5, DIAG_MESSAGE: 6, DIAG_CHUNK: 7, DIAG_CODE: 8, KF_FILENAME: 9, MAP_FILE: 10,
  KEY_MORPH: 11, NODE_TYPE: 12, SAVE_ERROR: 13, BITMAP: 14, CHUNK_NAME: 16 };

let mod = null;        // { x: exports, scratch, out } of the live instance
let broken = null;     // the trap that stopped the live instance

function fail(message) {
  return new Error(`kf3ds: ${message}`);
}

function need() {
  if (broken)
    throw fail(`the module stopped after an internal error (${broken.message}); ` +
      'call kf3ds.init() again');
  if (!mod)
    throw fail('call (and await) kf3ds.init() before using the module');
  return mod;
}

// Runs a call into the module; a trap (a bug in kf3ds, or memory exhausted
// inside it) marks the instance broken instead of leaving it half-changed.
function call(fn) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) {
      broken = e;
      throw fail(`internal error: ${e.message}`);
    }
    throw e;
  }
}

async function fetchBytes(url) {
  if (url.protocol === 'file:') {
    const fs = await import('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok)
    throw fail(`cannot fetch ${url.href}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** Loads kf3ds.wasm: its bytes (ArrayBuffer, typed array), a compiled
 *  WebAssembly.Module, a Response, or a URL (string or URL); by default
 *  kf3ds.wasm beside this module. Calling it again starts a fresh instance
 *  (the scenes of the previous one can no longer be used). */
export async function init(source) {
  let input = source;
  if (input === undefined || input === null)
    input = new URL('./kf3ds.wasm', import.meta.url);
  if (typeof input === 'string')
    input = /^[a-z][a-z0-9+.-]*:/i.test(input) ? new URL(input) :
      typeof process === 'object' && process.versions && process.versions.node
        ? (await import('node:url')).pathToFileURL(input) : new URL(input, globalThis.location?.href);
  if (input instanceof URL)
    input = await fetchBytes(input);
  if (typeof Response === 'function' && input instanceof Response)
    input = await input.arrayBuffer();
  let module;
  if (input instanceof WebAssembly.Module)
    module = input;
  else if (input instanceof ArrayBuffer || ArrayBuffer.isView(input))
    module = await WebAssembly.compile(input);
  else
    throw new TypeError('kf3ds.init: give the bytes of kf3ds.wasm, a WebAssembly.Module, ' +
      'a Response or a URL');
  const instance = await WebAssembly.instantiate(module, {});
  const x = instance.exports;
  for (const name of ['memory', 'kfw_alloc', 'kfw_free', 'kfw_load', 'kfw_get', 'kfw_str',
    'kfw_eval', 'kfw_render', 'kfw_save', 'kfw_cel_decode'])
    if (!(name in x))
      throw fail(`this is not kf3ds.wasm (no ${name})`);
  const scratch = x.kfw_alloc(64 * 8);
  const out = x.kfw_alloc(16);
  if (!scratch || !out)
    throw fail('out of memory');
  mod = { x, scratch, out };
  broken = null;
  liveHandles.clear(); // the scenes of the old instance are dead
}

/** The library's version, "0.1.0" (after init). */
export function version() {
  const v = need().x.kfw_version();
  return `${Math.floor(v / 10000)}.${Math.floor(v / 100) % 100}.${v % 100}`;
}

// ---- reading the module's memory ---------------------------------------------

// A C string as the command prints it in JSON: UTF-8 sequences as UTF-8,
// every other byte as the Latin-1 character of that code.
function cstring(ptr) {
  if (!ptr)
    return null;
  const b = new Uint8Array(mod.x.memory.buffer);
  let end = ptr;
  while (b[end])
    end++;
  let s = '';
  for (let i = ptr; i < end;) {
    const c = b[i];
    let n = 0, cp = 0;
    if (c >= 0xC2 && c <= 0xDF) { n = 2; cp = c & 0x1F; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; cp = c & 0x0F; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; cp = c & 0x07; }
    let ok = n > 0 && i + n <= end;
    for (let k = 1; ok && k < n; k++) {
      if ((b[i + k] & 0xC0) !== 0x80)
        ok = false;
      else
        cp = (cp << 6) | (b[i + k] & 0x3F);
    }
    if (ok && ((n === 3 && cp < 0x800) || (n === 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (ok) {
      s += String.fromCodePoint(cp);
      i += n;
    } else {
      s += String.fromCharCode(c);
      i++;
    }
  }
  return s;
}

function get(h, what, i = 0, j = 0, k = 0) {
  const n = mod.x.kfw_get(h, what, i, j, k, mod.scratch);
  if (n < 0)
    return null;
  return Array.from(new Float64Array(mod.x.memory.buffer, mod.scratch, n));
}

function str(h, what, i = 0, j = 0, k = 0) {
  return cstring(mod.x.kfw_str(h, what, i, j, k));
}

function diagnostic(h, i) {
  const v = get(h, G.DIAG, i);
  if (!v)
    return { offset: 0, chunk: '', chunkId: 0, code: 'error', message: 'cannot load the file',
      severity: 'error' };
  return {
    offset: v[2],
    chunk: str(h, S.DIAG_CHUNK, i),
    chunkId: v[3],
    code: str(h, S.DIAG_CODE, i),
    message: str(h, S.DIAG_MESSAGE, i),
    severity: v[1] ? 'error' : 'warning',
  };
}

function tracksOf(h, node) {
  const tracks = {};
  for (let kind = 0; kind < TRACK_KINDS.length; kind++) {
    const [numKeys, flags] = get(h, G.TRACK, node, kind);
    if (!numKeys)
      continue;
    const keys = new Array(numKeys);
    for (let k = 0; k < numKeys; k++) {
      const v = get(h, G.KEY, node, kind, k);
      const key = {
        frame: v[0], splineFlags: v[1], tension: v[2], continuity: v[3], bias: v[4],
        easeTo: v[5], easeFrom: v[6], value: v.slice(7, 7 + TRACK_VALUES[kind]),
      };
      if (TRACK_KINDS[kind] === 'rot')
        key.quat = v.slice(11, 15);
      if (TRACK_KINDS[kind] === 'morph') {
        key.morph = str(h, S.KEY_MORPH, node, kind, k);
        key.morphMesh = v[15];
      }
      keys[k] = key;
    }
    tracks[TRACK_KINDS[kind]] = { flags, loop: ['single', 'wrap', 'repeat', 'loop'][flags & 3],
      keys };
  }
  return tracks;
}

function readNode(h, id, i) {
  const v = get(h, G.NODE, i);
  const node = {
    index: i, name: str(h, S.NODE_NAME, i), type: str(h, S.NODE_TYPE, v[0]),
    parent: v[1], id: v[2], mesh: v[3], camera: v[4], light: v[5], target: v[6],
    flags1: v[7], flags2: v[8], pivot: v.slice(9, 12), dummy: !!v[12], depth: v[14],
    offset: v[15],
  };
  const instance = str(h, S.NODE_INSTANCE, i);
  if (instance !== null)
    node.instance = instance;
  let tracks = null;
  Object.defineProperty(node, 'tracks', {
    enumerable: true,
    get() {
      if (!tracks)
        tracks = sceneCall(h, id, () => tracksOf(h, i));
      return tracks;
    },
  });
  return node;
}

// The live scenes of the instance: handle -> the serial number of its load
// (a freed handle's address may come back for another scene).
const liveHandles = new Map();
let serial = 0;

// Tracks are read when first asked for: the scene must still be alive then.
function sceneCall(h, id, fn) {
  need();
  if (liveHandles.get(h) !== id)
    throw fail('this scene was freed (scene.free()) or its module re-initialised');
  return call(fn);
}

function readScene(h, id) {
  const v = get(h, G.SCENE);
  const [numNodes, numMeshes, numMaterials, numCameras, numLights, numDiags, dropped] = v;
  const s = {
    hasKeyframer: !!v[7], animLength: v[8], segment: { start: v[9], end: v[10] },
    currentFrame: v[11], version: v[12], meshVersion: v[13], masterScale: v[14],
    ambient: v.slice(15, 18), placesMeshes: !!v[18], keyframerRevision: v[19],
    keyframerFileName: str(h, S.KF_FILENAME),
  };
  s.diagnostics = [];
  for (let i = 0; i < numDiags; i++)
    s.diagnostics.push(diagnostic(h, i));
  s.droppedDiagnostics = dropped;
  s.nodes = [];
  for (let i = 0; i < numNodes; i++)
    s.nodes.push(readNode(h, id, i));
  s.meshes = [];
  for (let i = 0; i < numMeshes; i++) {
    const m = get(h, G.MESH, i);
    s.meshes.push({ index: i, name: str(h, S.MESH_NAME, i), numPoints: m[0], numFaces: m[1],
      numTexcoords: m[2], numGroups: m[3], mirrored: !!m[4], hidden: !!m[5], color: m[6] });
  }
  s.materials = [];
  for (let i = 0; i < numMaterials; i++) {
    const m = get(h, G.MATERIAL, i);
    const maps = {};
    for (let k = 0; k < MAP_KINDS.length; k++) {
      const file = str(h, S.MAP_FILE, i, k);
      if (!file)
        continue;
      const t = get(h, G.MAP, i, k);
      maps[MAP_KINDS[k]] = { file, strength: t[0], tiling: t[1], blur: t[2], uScale: t[3],
        vScale: t[4], uOffset: t[5], vOffset: t[6], rotation: t[7] };
    }
    s.materials.push({ index: i, name: str(h, S.MATERIAL_NAME, i), ambient: m.slice(0, 3),
      diffuse: m.slice(3, 6), specular: m.slice(6, 9), shininess: m[9], shinStrength: m[10],
      transparency: m[11], selfIllum: m[12], wireSize: m[13], shading: m[14],
      twoSided: !!m[15], additive: !!m[16], wire: !!m[17], decal: !!m[18], faceMap: !!m[19],
      soften: !!m[20], selfIllumFlag: !!m[21], maps });
  }
  s.cameras = [];
  for (let i = 0; i < numCameras; i++) {
    const c = get(h, G.CAMERA, i);
    s.cameras.push({ index: i, name: str(h, S.CAMERA_NAME, i), position: c.slice(0, 3),
      target: c.slice(3, 6), roll: c[6], lens: c[7], fov: c[8], near: c[9], far: c[10],
      seeCone: !!c[11], hidden: !!c[12] });
  }
  s.lights = [];
  for (let i = 0; i < numLights; i++) {
    const l = get(h, G.LIGHT, i);
    const light = { index: i, name: str(h, S.LIGHT_NAME, i), position: l.slice(0, 3),
      color: l.slice(3, 6), off: !!l[6], spot: !!l[7], hidden: !!l[8], attenuate: !!l[9],
      shadowed: !!l[10], seeCone: !!l[11], rectangular: !!l[12], overshoot: !!l[13],
      innerRange: l[14], outerRange: l[15], multiplier: l[16] };
    if (light.spot)
      Object.assign(light, { target: l.slice(17, 20), hotspot: l[20], falloff: l[21],
        roll: l[22] });
    s.lights.push(light);
  }
  const e = get(h, G.ENVIRONMENT);
  s.environment = {
    background: BACKGROUNDS[e[0]] ?? 'none', atmosphere: ATMOSPHERES[e[1]] ?? 'none',
    bitmap: str(h, S.BITMAP), solid: e.slice(2, 5), gradientMid: e[5],
    gradient: [e.slice(6, 9), e.slice(9, 12), e.slice(12, 15)],
    fog: { near: e[15], nearDensity: e[16], far: e[17], farDensity: e[18],
      color: e.slice(19, 22), background: !!e[22] },
    layerFog: { bottom: e[23], top: e[24], density: e[25], flags: e[26],
      color: e.slice(27, 30) },
    distanceCue: { near: e[30], nearDim: e[31], far: e[32], farDim: e[33],
      background: !!e[34] },
  };
  return s;
}

// ---- a file cut short ----------------------------------------------------------

const le32 = (p, at) => (p[at] | p[at + 1] << 8 | p[at + 2] << 16 | p[at + 3] << 24) >>> 0;

function chunkName(id) {
  return cstring(mod.x.kfw_str(0, S.CHUNK_NAME, id, 0, 0));
}

// Chunks whose body is chunks (after a name for NAMED_OBJECT).
function isContainer(id) {
  return [0x4D4D, 0x3DAA, 0xC23D, 0x2D2D, 0x2D3D, 0x3DFF, 0x3D3D, 0xB000, 0x4000, 0x4100,
    0xAFFF].includes(id) || (id >= 0xB001 && id <= 0xB007);
}

// What the command reports for a file that ends before its root chunk does
// and cuts a chunk inside (tools/cmd/cmd_common.c, find_damage; docs/output.md,
// "Damaged files"): { rootId, missing, lost }, or null when it is not cut.
function findDamage(p) {
  const size = p.length;
  if (size < 6 || le32(p, 2) <= size)
    return null;
  const rootId = p[0] | p[1] << 8, missing = le32(p, 2) - size;
  let off = 6, parent = rootId, hasKfdata = false, anyCut = false;
  let lost = `the chunks past offset ${size}`;
  for (let depth = 0; depth < 16; depth++) {
    let cut = false;
    while (off + 6 <= size) {
      const id = p[off] | p[off + 1] << 8, len = le32(p, off + 2);
      if (len < 6)
        return null;
      if (depth === 0 && id === 0xB000)
        hasKfdata = true;
      if (len <= size - off) {
        off += len;
        continue;
      }
      anyCut = cut = true;
      lost += `${depth ? ' > ' : ', inside '}${chunkName(id) ?? '?'}`;
      if (id === 0x4000) {
        let k = off + 6;
        while (k < size && p[k] && k - off - 6 < 16)
          k++;
        if (k < size && !p[k])
          lost += ` '${latin1(p.subarray(off + 6, k))}'`;
      }
      lost += ` (offset ${off})`;
      parent = id;
      if (id === 0x4000) {
        let k = off + 6;
        while (k < size && p[k])
          k++;
        off = k + 1;
      } else {
        off += 6;
      }
      break;
    }
    if (!cut || !isContainer(parent))
      break;
  }
  if (off + 6 > size && off < size) {
    lost += `${anyCut ? ', then' : ', from'} a chunk header cut at offset ${off}`;
    anyCut = true;
  }
  if (!hasKfdata)
    lost += ', and the keyframer (no KFDATA chunk is left)';
  return anyCut ? { rootId, missing, lost: lost.slice(0, 399) } : null; // its 400-byte buffer
}

function latin1(bytes) {
  let s = '';
  for (const b of bytes)
    s += String.fromCharCode(b);
  return s;
}

// ---- arguments ----------------------------------------------------------------

function bytesOf(data, what) {
  if (data instanceof Uint8Array || data instanceof Uint8ClampedArray)
    return data;
  if (data instanceof ArrayBuffer)
    return new Uint8Array(data);
  if (ArrayBuffer.isView(data))
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`kf3ds: ${what} must be a Uint8Array or an ArrayBuffer, ` +
    `not ${describe(data)}`);
}

function describe(v) {
  if (v === null)
    return 'null';
  if (Array.isArray(v))
    return 'an array';
  if (typeof v === 'object')
    return `a ${v.constructor?.name ?? 'object'}`;
  return `${typeof v} ${String(v).slice(0, 40)}`;
}

function number(v, what, lo, hi) {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new TypeError(`kf3ds: ${what} must be a finite number, not ${describe(v)}`);
  if (v < lo || v > hi)
    throw new RangeError(`kf3ds: ${what} ${v} is out of range (${lo} to ${hi})`);
  return v;
}

function integer(v, what, lo, hi) {
  number(v, what, lo, hi);
  if (!Number.isInteger(v))
    throw new TypeError(`kf3ds: ${what} must be an integer, not ${v}`);
  return v;
}

function options(o, what, known) {
  if (o === undefined || o === null)
    return {};
  if (typeof o !== 'object' || Array.isArray(o))
    throw new TypeError(`kf3ds: ${what} takes an options object, not ${describe(o)}`);
  for (const k of Object.keys(o))
    if (!known.includes(k))
      throw new TypeError(`kf3ds: ${what}: unknown option '${k}' (${known.join(', ')})`);
  return o;
}

// Copies bytes into the module; returns the pointer (free it with kfw_free).
function copyIn(bytes) {
  const p = call(() => mod.x.kfw_alloc(bytes.length));
  if (!p)
    throw fail(`out of memory for ${bytes.length} bytes`);
  new Uint8Array(mod.x.memory.buffer, p, bytes.length).set(bytes);
  return p;
}

const registry = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry(({ h, id }) => {
    if (mod && !broken && liveHandles.get(h) === id) {
      liveHandles.delete(h);
      mod.x.kfw_scene_free(h);
    }
  }) : null;

// ---- export and bake arguments -------------------------------------------------

const GLTF_NO_ANIMATION = 0x002, GLTF_STATIC_FRAME = 0x004, GLTF_FRAMES = 0x008,
  GLTF_CUBIC = 0x010, GLTF_VISIBILITY_EXT = 0x020, GLTF_NO_EASE = 0x040,
  GLTF_EMBED_IMAGES = 0x080, GLTF_LINEAR = 0x200;
const GLTF_MAX_FPS = 100000, GLTF_MAX_RATE = 1000;
const STATUS_NOMEM = 3, STATUS_LIMIT = 7; // kf3ds_status (include/kf3ds.h)
const BAKE_FIXED = 0x1, BAKE_NO_MESHES = 0x2;
const MAX_IMAGE = 256 * 1024 * 1024; // bytes of one texture file

function utf8(text) {
  return new TextEncoder().encode(text);
}

// The caller's texture files matched to the maps the export asks for
// (texture 1 of each material), as the command finds a map beside the input
// (tools/cmd/cmd_maps.c): the stored name's last part, that spelling first, then
// any case. [{ name: stored, key: the caller's name, data }].
function imageList(images, materials) {
  if (images === undefined || images === null)
    return [];
  let entries;
  if (images instanceof Map)
    entries = [...images.entries()];
  else if (typeof images === 'object' && !Array.isArray(images) && !ArrayBuffer.isView(images))
    entries = Object.entries(images);
  else
    throw new TypeError('kf3ds: exportGlb: images must be an object or a Map of file name -> ' +
      `bytes, not ${describe(images)}`);
  const files = entries.map(([key, data]) => {
    if (typeof key !== 'string')
      throw new TypeError(`kf3ds: exportGlb: images: a file name must be a string, not ${describe(key)}`);
    const bytes = bytesOf(data, `exportGlb: images['${key}']`);
    if (bytes.length > MAX_IMAGE)
      throw new RangeError(`kf3ds: exportGlb: images['${key}'] has ${bytes.length} bytes, ` +
        `over ${MAX_IMAGE}`);
    return { key, data: bytes };
  });
  const out = [];
  for (const m of materials) {
    const name = m.maps.texture1?.file;
    if (!name || out.some((x) => x.name === name))
      continue;
    const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'),
      name.lastIndexOf(':')) + 1);
    if (!base || base === '.' || base === '..')
      continue;
    const lower = (t) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const found = files.find((f) => f.key === base) ??
      files.find((f) => lower(f.key) === lower(base));
    if (found)
      out.push({ name, key: found.key, data: found.data });
  }
  return out;
}

// A decimal "[-]digits[.digits]" (or a number) as { num, dec }: num / 10^dec,
// at most 6 decimals (`kf3ds bake`'s frames and step, tools/cmd/cmd_bake.c).
function decimal(v, what) {
  const text = typeof v === 'number' && Number.isFinite(v) ? String(v) : v;
  const m = typeof text === 'string' && /^([-+]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || !(m[2] + (m[3] ?? '')).length)
    throw new TypeError(`kf3ds: bake: ${what} must be a decimal number, not ${describe(v)}`);
  const frac = (m[3] ?? '').replace(/0+$/, '');
  if (frac.length > 6)
    throw new RangeError(`kf3ds: bake: ${what} ${text}: at most 6 decimals`);
  const num = Number((m[2] || '0') + frac);
  if (num > 2147483647)
    throw new RangeError(`kf3ds: bake: ${what} ${text} does not fit 32-bit frame numbers`);
  return { num: m[1] === '-' ? -num : num, dec: frac.length };
}

// The frames A, A+S, ... up to B as (first + i·step) / scale, as the command
// plans them.
function planFrames(o, segment) {
  let a = { num: segment.start, dec: 0 }, b = { num: segment.end, dec: 0 };
  let st = { num: 1, dec: 0 };
  if (o.frames !== undefined) {
    if (!Array.isArray(o.frames) || o.frames.length !== 2)
      throw new TypeError('kf3ds: bake: frames must be [first, last]');
    a = decimal(o.frames[0], 'first frame');
    b = decimal(o.frames[1], 'last frame');
  }
  if (o.step !== undefined) {
    st = decimal(o.step, 'step');
    if (st.num <= 0)
      throw new RangeError('kf3ds: bake: step must be above 0');
  }
  const d = Math.max(a.dec, b.dec, st.dec);
  const first = a.num * 10 ** (d - a.dec), last = b.num * 10 ** (d - b.dec);
  const step = st.num * 10 ** (d - st.dec);
  if (last < first)
    throw new RangeError('kf3ds: bake: the last frame comes before the first');
  if (first < -2147483648 || first > 2147483647 || last > 2147483647 || step > 2147483647)
    throw new RangeError('kf3ds: bake: the frames do not fit 32-bit frame numbers');
  const count = Math.floor((last - first) / step) + 1;
  if (count > 0xFFFFFFFF)
    throw new RangeError(`kf3ds: bake: ${count} frames are too many`);
  return { first, step, scale: 10 ** d, count };
}

// A cut file is an error that says what was lost, as the command reports it:
// the loader's warning that the root chunk overruns the file becomes it.
function markTruncation(diagnostics, bytes) {
  const damage = findDamage(bytes);
  if (!damage)
    return;
  const d = diagnostics.find((x) => x.offset === 0 && x.code === 'chunk overrun' &&
    x.chunkId === damage.rootId);
  if (!d)
    return;
  d.severity = 'error';
  d.code = 'truncated';
  d.message = `truncated: the file ends ${damage.missing} bytes before its root chunk does; ` +
    `lost: ${damage.lost}`;
}

/** Reads a .3ds file from its bytes. Returns a Scene holding everything that
 *  could be read (a damaged file's diagnostics say what was lost); throws an
 *  Error with .diagnostics when nothing could (not a .3ds file, empty). */
export function load(data, opts) {
  const m = need();
  const bytes = bytesOf(data, 'load(data)');
  const o = options(opts, 'load', ['fileName']);
  const fileName = o.fileName === undefined ? '' : o.fileName;
  if (typeof fileName !== 'string')
    throw new TypeError(`kf3ds: load: fileName must be a string, not ${describe(fileName)}`);
  if (bytes.length > MAX_INPUT)
    throw fail(`${fileName || 'input'}: ${bytes.length} bytes, over the input limit of 1 GiB`);
  const p = copyIn(bytes);
  let h;
  try {
    h = call(() => m.x.kfw_load(p, bytes.length));
  } finally {
    if (!broken)
      m.x.kfw_free(p);
  }
  if (!h)
    throw fail(`${fileName || 'input'}: out of memory`);
  if (!m.x.kfw_loaded(h)) {
    const d = diagnostic(h, -1);
    m.x.kfw_scene_free(h);
    const e = fail(`${fileName ? fileName + ': ' : ''}${d.message || d.code}`);
    e.diagnostics = [d];
    throw e;
  }
  const id = ++serial;
  liveHandles.set(h, id);
  let info;
  try {
    info = call(() => readScene(h, id));
    markTruncation(info.diagnostics, bytes);
  } catch (e) {
    if (!broken) {
      liveHandles.delete(h);
      m.x.kfw_scene_free(h);
    }
    throw e;
  }
  return new Scene(h, id, fileName, info);
}

// ---- Animator pictures ----------------------------------------------------------

const CEL_WHY = 160; // bytes for the decoder's reason

/** Decodes an Autodesk Animator CEL or PIC picture (Animator 1 CEL/PIC,
 *  Animator Pro PIC and CEL), the maps of DOS-era .3ds files that browsers
 *  cannot decode, with the decoder `kf3ds render` uses. Returns an
 *  ImageData-like { width, height, data } (data: Uint8ClampedArray, RGBA,
 *  opaque, top row first), ready for scene.setMap; throws an Error with
 *  .offset (the byte at fault) when the bytes are no such picture or a
 *  damaged one. */
export function decodeCel(data) {
  const m = need();
  const bytes = bytesOf(data, 'decodeCel(data)');
  if (bytes.length > MAX_IMAGE)
    throw fail(`decodeCel: ${bytes.length} bytes, over the limit of ${MAX_IMAGE} for one picture`);
  const p = copyIn(bytes);
  const out = copyIn(new Uint8Array(12 + CEL_WHY));
  try {
    const rgba = call(() => m.x.kfw_cel_decode(p, bytes.length, out, out + 12, CEL_WHY));
    const [width, height, offset] = new Int32Array(m.x.memory.buffer, out, 3);
    if (!rgba) {
      const e = fail(`decodeCel: ${cstring(out + 12) || 'cannot decode the picture'}` +
        ` (at byte ${offset})`);
      e.offset = offset;
      throw e;
    }
    const pixels = new Uint8ClampedArray(width * height * 4);
    pixels.set(new Uint8Array(m.x.memory.buffer, rgba, pixels.length));
    m.x.kfw_free(rgba);
    return { width, height, data: pixels };
  } finally {
    if (!broken) {
      m.x.kfw_free(p);
      m.x.kfw_free(out);
    }
  }
}

// ---- scenes -------------------------------------------------------------------

export class Scene {
  #h;
  #id;
  #token = {};

  /** (Made by kf3ds.load.) */
  constructor(handle, id, fileName, info) {
    if (liveHandles.get(handle) !== id || id === undefined)
      throw new TypeError('kf3ds: scenes are made by kf3ds.load()');
    this.#h = handle;
    this.#id = id;
    this.fileName = fileName;
    Object.assign(this, info);
    const error = info.diagnostics.find((d) => d.severity === 'error');
    this.ok = !error;
    this.error = error ?? null;
    registry?.register(this, { h: handle, id }, this.#token);
  }

  #handle(what) {
    if (!this.#h)
      throw fail(`${what}: this scene was freed (scene.free())`);
    need();
    if (liveHandles.get(this.#h) !== this.#id)
      throw fail(`${what}: this scene belongs to a module instance that init() replaced`);
    return this.#h;
  }

  /** True once free() was called (or the module was re-initialised). */
  get freed() {
    return !this.#h || liveHandles.get(this.#h) !== this.#id;
  }

  #nodeIndex(node, what) {
    if (typeof node === 'string') {
      const i = this.nodes.findIndex((n) => n.name === node);
      if (i < 0)
        throw fail(`${what}: no node named '${node}'`);
      return i;
    }
    return integer(node, `${what}: node`, 0, this.nodes.length - 1);
  }

  /** Every node's world matrix N(t) at `frame`: 16 floats per node, row-major
   *  (m[row][col], column vectors, translation in elements 3, 7, 11), the
   *  "world" numbers of `kf3ds eval --json`. */
  eval(frame, opts) {
    const h = this.#handle('eval');
    number(frame, 'eval: frame', -Infinity, Infinity);
    const o = options(opts, 'eval', ['noEase']);
    const n = this.nodes.length * 16;
    const p = call(() => mod.x.kfw_eval(h, frame, o.noEase ? EVAL_NO_EASE : 0));
    if (!p)
      throw fail('eval failed');
    return new Float32Array(mod.x.memory.buffer, p, n).slice();
  }

  /** The vertices of an object node's mesh placed at `frame` (x, y, z per
   *  point; `kf3ds eval --verts`), or null when the node places no mesh.
   *  node: its index or name. */
  vertices(node, frame, opts) {
    const h = this.#handle('vertices');
    const i = this.#nodeIndex(node, 'vertices');
    number(frame, 'vertices: frame', -Infinity, Infinity);
    const o = options(opts, 'vertices', ['noEase']);
    const p = call(() => mod.x.kfw_vertices(h, i, frame, o.noEase ? EVAL_NO_EASE : 0,
      mod.out));
    if (!p)
      return null;
    const count = new Uint32Array(mod.x.memory.buffer, mod.out, 1)[0];
    return new Float32Array(mod.x.memory.buffer, p, count * 3).slice();
  }

  /** One picture as RGBA bytes (width×height×4, alpha 255; new ImageData(rgba,
   *  width, height) shows it): the pixels of `kf3ds render FILE --frame F
   *  --size WxH` with the same options. */
  render(opts) {
    const h = this.#handle('render');
    const o = options(opts, 'render', ['width', 'height', 'frame', 'camera', 'orbit',
      'shading', 'overlays', 'cull', 'environment', 'label', 'noEase', 'fileLights',
      'background', 'zoom', 'pan', 'paths', 'follow', 'into']);
    const width = o.width === undefined ? 640 : integer(o.width, 'render: width', 1, MAX_SIDE);
    const height = o.height === undefined ? 480
      : integer(o.height, 'render: height', 1, MAX_SIDE);
    if (width * height > MAX_PIXELS)
      throw new RangeError(`kf3ds: render: ${width}x${height} is more than ${MAX_PIXELS} pixels`);
    const frame = o.frame === undefined ? this.segment.start
      : number(o.frame, 'render: frame', -MAX_FRAME, MAX_FRAME);
    let flags = 0, az = 35, el = 25, cameraNode = -1, editorCamera = -1;
    if (o.camera !== undefined && o.orbit !== undefined)
      throw new TypeError('kf3ds: render: camera and orbit exclude each other');
    if (o.camera !== undefined)
      [cameraNode, editorCamera] = this.#findCamera(o.camera);
    if (o.orbit !== undefined) {
      if (!Array.isArray(o.orbit) || o.orbit.length !== 2)
        throw new TypeError('kf3ds: render: orbit must be [azimuth, elevation] in degrees');
      az = number(o.orbit[0], 'render: orbit azimuth', -1e6, 1e6);
      el = number(o.orbit[1], 'render: orbit elevation', -90, 90);
      flags |= R_ORBIT;
    }
    let shading = 0;
    if (o.shading !== undefined) {
      if (typeof o.shading !== 'string' || !(o.shading in SHADINGS))
        throw new TypeError(`kf3ds: render: shading must be 'smooth', 'flat' or 'wire', ` +
          `not ${describe(o.shading)}`);
      shading = SHADINGS[o.shading];
    }
    const overlays = overlayBits(o.overlays);
    for (const [key, bit, onWhen] of [['cull', R_CULL, true], ['environment', R_NO_ENV, false],
      ['label', R_NO_LABEL, false], ['noEase', R_NO_EASE, true],
      ['fileLights', R_NO_LIGHTS, false], ['paths', R_PATHS, true]]) {
      if (o[key] === undefined)
        continue;
      if (typeof o[key] !== 'boolean')
        throw new TypeError(`kf3ds: render: ${key} must be true or false, not ${describe(o[key])}`);
      if (o[key] === onWhen)
        flags |= bit;
    }
    const background = o.background === undefined ? 0
      : integer(o.background, 'render: background (0xRRGGBB)', 0, 0xFFFFFF);
    const zoom = o.zoom === undefined ? 1 : number(o.zoom, 'render: zoom', 0.01, 100);
    let pan = [0, 0];
    if (o.pan !== undefined) {
      if (!Array.isArray(o.pan) || o.pan.length !== 2)
        throw new TypeError('kf3ds: render: pan must be [x, y], fractions of the distance');
      pan = [number(o.pan[0], 'render: pan x', -1000, 1000),
        number(o.pan[1], 'render: pan y', -1000, 1000)];
    }
    if ((zoom !== 1 || pan[0] || pan[1]) && (cameraNode >= 0 || editorCamera >= 0))
      throw new TypeError('kf3ds: render: zoom and pan move the orbit view, not a camera');
    // `kf3ds view`'s t: true keeps the objects' size at this frame, a number
    // their size at that frame.
    let follow = 0;
    if (o.follow !== undefined && o.follow !== false) {
      if (o.camera !== undefined)
        throw new TypeError('kf3ds: render: follow is an orbit view, not a camera');
      follow = o.follow === true ? frame
        : number(o.follow, 'render: follow (true or a frame)', -MAX_FRAME, MAX_FRAME);
      flags |= R_FOLLOW;
    }
    // `into`: the caller's array, reused from frame to frame. A new array of a
    // picture's size costs more than drawing it in Chromium (fresh memory is
    // faulted in page by page; make bench-web, docs/web.md "Speed").
    const into = o.into;
    if (into !== undefined) {
      if (!(into instanceof Uint8ClampedArray || into instanceof Uint8Array))
        throw new TypeError(`kf3ds: render: into must be a Uint8ClampedArray or Uint8Array, ` +
          `not ${describe(into)}`);
      if (into.length !== width * height * 4)
        throw new RangeError(`kf3ds: render: into holds ${into.length} bytes, not ` +
          `${width}x${height}x4 = ${width * height * 4}`);
    }
    const p = call(() => mod.x.kfw_render(h, width, height, frame, cameraNode, editorCamera,
      az, el, shading, overlays, flags, background, Math.fround(zoom), Math.fround(pan[0]),
      Math.fround(pan[1]), follow));
    if (!p)
      throw fail(`render: out of memory for ${width}x${height}`);
    const rgba = into || new Uint8ClampedArray(width * height * 4);
    // (from a view of the same type: V8 copies Uint8Array into Uint8ClampedArray
    // element by element, ten times slower)
    const View = rgba instanceof Uint8ClampedArray ? Uint8ClampedArray : Uint8Array;
    rgba.set(new View(mod.x.memory.buffer, p, width * height * 4));
    return rgba;
  }

  // A camera node by name, else an editor camera without a node (`kf3ds
  // render --camera`); a node index is taken as is.
  #findCamera(camera) {
    if (typeof camera === 'number') {
      integer(camera, 'render: camera', 0, this.nodes.length - 1);
      if (this.nodes[camera].type !== 'camera')
        throw fail(`render: node ${camera} is not a camera node`);
      return [camera, -1];
    }
    if (typeof camera !== 'string' || !camera)
      throw new TypeError(`kf3ds: render: camera must be a camera's name or node index, ` +
        `not ${describe(camera)}`);
    const node = this.nodes.findIndex((n) => n.type === 'camera' && n.name === camera);
    if (node >= 0)
      return [node, -1];
    const editor = this.cameras.findIndex((c) => c.name === camera &&
      !this.nodes.some((n) => n.type === 'camera' && n.camera === c.index));
    if (editor >= 0)
      return [-1, editor];
    const names = this.nodes.filter((n) => n.type === 'camera').map((n) => n.name);
    const list = names.length ? names : this.cameras.map((c) => c.name);
    throw fail(list.length ? `render: no camera '${camera}' (the file has: ${list.join(', ')})`
      : `render: no camera '${camera}': the file has no camera`);
  }

  /** Gives the renderer the picture of one of a material's maps (kind
   *  'texture1', 'texture2' or 'opacity' are drawn): image {width, height,
   *  data} with RGBA bytes, as ImageData holds them; null removes it. The
   *  command finds and decodes these files itself; here the caller does.
   *  Returns true when the renderer uses the picture. */
  setMap(material, kind, image) {
    const h = this.#handle('setMap');
    let m = material;
    if (typeof m === 'string') {
      m = this.materials.findIndex((x) => x.name === material);
      if (m < 0)
        throw fail(`setMap: no material named '${material}'`);
    } else {
      integer(m, 'setMap: material', 0, this.materials.length - 1);
    }
    const k = typeof kind === 'string' ? MAP_KINDS.indexOf(kind) : kind;
    integer(k, `setMap: kind (${MAP_KINDS.join(', ')})`, 0, MAP_KINDS.length - 1);
    return this.#picture(h, m, k, image, 'setMap') === 1;
  }

  /** The picture of the file's bitmap background (environment.bitmap), or null. */
  setBackground(image) {
    const h = this.#handle('setBackground');
    return this.#picture(h, 0, -1, image, 'setBackground') === 1;
  }

  #picture(h, material, kind, image, what) {
    if (image === null)
      return call(() => mod.x.kfw_set_map(h, material, kind, 0, 0, 0));
    if (typeof image !== 'object' || image === undefined)
      throw new TypeError(`kf3ds: ${what}: image must be {width, height, data} or null`);
    const w = integer(image.width, `${what}: image.width`, 1, 32768);
    const ht = integer(image.height, `${what}: image.height`, 1, 32768);
    const data = bytesOf(image.data, `${what}: image.data`);
    if (data.length !== w * ht * 4)
      throw new RangeError(`kf3ds: ${what}: image.data has ${data.length} bytes, not ` +
        `${w}x${ht}x4`);
    const p = call(() => mod.x.kfw_alloc(data.length));
    if (!p)
      throw fail(`${what}: out of memory`);
    try {
      const px = new Uint32Array(mod.x.memory.buffer, p, w * ht);
      for (let i = 0, j = 0; i < px.length; i++, j += 4)
        px[i] = ((data[j + 3] << 24) | (data[j] << 16) | (data[j + 1] << 8) | data[j + 2]) >>> 0;
      const r = call(() => mod.x.kfw_set_map(h, material, kind, p, w, ht));
      if (r === -2)
        throw fail(`${what}: out of memory preparing the renderer`);
      return r;
    } finally {
      if (!broken)
        mod.x.kfw_free(p);
    }
  }

  /** The scene as a .3ds file, the bytes `kf3ds rewrite` writes: the file's
   *  chunks in its order with what the loader repaired; canonical: kf3ds's own
   *  order; dropUnknown: without the chunks kf3ds does not read; noKeyframer:
   *  editor data only; segment: [start, end] as the active segment. */
  save(opts) {
    const h = this.#handle('save');
    const o = options(opts, 'save', ['canonical', 'dropUnknown', 'noKeyframer', 'segment']);
    let flags = 0, a = 0, b = 0;
    for (const [key, bit] of [['canonical', SAVE_CANONICAL], ['dropUnknown', SAVE_DROP_UNKNOWN],
      ['noKeyframer', SAVE_NO_KEYFRAMER]]) {
      if (o[key] === undefined)
        continue;
      if (typeof o[key] !== 'boolean')
        throw new TypeError(`kf3ds: save: ${key} must be true or false, not ${describe(o[key])}`);
      if (o[key])
        flags |= bit;
    }
    if (o.segment !== undefined) {
      if (!Array.isArray(o.segment) || o.segment.length !== 2)
        throw new TypeError('kf3ds: save: segment must be [start, end]');
      a = integer(o.segment[0], 'save: segment start', -2147483647, 2147483647);
      b = integer(o.segment[1], 'save: segment end', a, 2147483647);
      flags |= SAVE_SEGMENT;
    }
    const p = call(() => mod.x.kfw_save(h, flags, a, b, mod.out));
    if (!p)
      throw fail(`save: ${str(h, S.SAVE_ERROR) || 'out of memory'}`);
    const size = new Uint32Array(mod.x.memory.buffer, mod.out, 1)[0];
    const bytes = new Uint8Array(mod.x.memory.buffer, p, size).slice();
    mod.x.kfw_save_free(p);
    return bytes;
  }

  /** The scene and its animation as glTF 2.0, the bytes of a .glb: those
   *  `kf3ds export FILE -o OUT.glb` writes with the same options
   *  (docs/gltf.md). Options: animation (false: the pose at the first frame,
   *  --no-animation), staticFrame (--static-frame F), frames [A, B] (whole
   *  frames, --frames A:B), fps, rate, cubic, linear (--linear: LINEAR
   *  keys only, for Blender's importer; takes no cubic), visibilityExt,
   *  noEase, embedImages; images: the texture maps' files as bytes keyed by file
   *  name (an object or a Map; found as the command finds them beside the
   *  input: the stored name's last part, then any case), each referred to by
   *  that name unless embedImages; onWarning(message, {kind, map}) hears
   *  what was left out. */
  exportGlb(opts) {
    const h = this.#handle('exportGlb');
    const o = options(opts, 'exportGlb', ['animation', 'staticFrame', 'frames', 'fps', 'rate',
      'cubic', 'linear', 'visibilityExt', 'noEase', 'embedImages', 'images', 'onWarning']);
    let flags = 0, staticFrame = 0, first = 0, last = 0, fps = 30, rate = 1;
    for (const [key, bit, onWhen] of [['animation', GLTF_NO_ANIMATION, false],
      ['cubic', GLTF_CUBIC, true], ['linear', GLTF_LINEAR, true],
      ['visibilityExt', GLTF_VISIBILITY_EXT, true],
      ['noEase', GLTF_NO_EASE, true], ['embedImages', GLTF_EMBED_IMAGES, true]]) {
      if (o[key] === undefined)
        continue;
      if (typeof o[key] !== 'boolean')
        throw new TypeError(`kf3ds: exportGlb: ${key} must be true or false, not ${describe(o[key])}`);
      if (o[key] === onWhen)
        flags |= bit;
    }
    if (o.fps !== undefined) {
      fps = number(o.fps, 'exportGlb: fps', 0, GLTF_MAX_FPS);
      if (!(fps > 0))
        throw new RangeError('kf3ds: exportGlb: fps must be above 0');
    }
    if (o.rate !== undefined)
      rate = integer(o.rate, 'exportGlb: rate (samples per frame)', 1, GLTF_MAX_RATE);
    if (o.frames !== undefined) {
      if (!Array.isArray(o.frames) || o.frames.length !== 2)
        throw new TypeError('kf3ds: exportGlb: frames must be [first, last]');
      first = integer(o.frames[0], 'exportGlb: first frame', -2e9, 2e9);
      last = integer(o.frames[1], 'exportGlb: last frame', first, 2e9);
      flags |= GLTF_FRAMES;
    }
    if (o.staticFrame !== undefined) {
      staticFrame = number(o.staticFrame, 'exportGlb: staticFrame', -Infinity, Infinity);
      if (o.frames !== undefined || o.cubic !== undefined || o.rate !== undefined)
        throw new TypeError('kf3ds: exportGlb: staticFrame exports one pose: it takes no ' +
          'frames, rate or cubic');
      flags |= GLTF_STATIC_FRAME | GLTF_NO_ANIMATION;
    }
    if (o.onWarning !== undefined && typeof o.onWarning !== 'function')
      throw new TypeError(`kf3ds: exportGlb: onWarning must be a function, not ${describe(o.onWarning)}`);
    const images = imageList(o.images, this.materials);
    const baseName = this.fileName.slice(this.fileName.lastIndexOf('/') + 1);
    const blocks = [];
    const alloc = (bytes) => {
      const p = copyIn(bytes);
      blocks.push(p);
      return p;
    };
    const cstr = (text) => alloc(utf8(text + '\0'));
    try {
      const n = images.length;
      // kfw_images: count, names, data, sizes, uris, embed (web/kf3ds_wasm.c)
      const table = alloc(new Uint8Array(24));
      const arrays = alloc(new Uint8Array(Math.max(1, n) * 16));
      const words = new Uint32Array(n * 4);
      images.forEach((im, i) => {
        words[i] = cstr(im.name);
        words[n + i] = alloc(im.data);
        words[2 * n + i] = im.data.length;
        words[3 * n + i] = cstr(im.key);
      });
      new Uint32Array(mod.x.memory.buffer, arrays, n * 4).set(words);
      new Uint32Array(mod.x.memory.buffer, table, 6).set([n, arrays, arrays + 4 * n,
        arrays + 8 * n, arrays + 12 * n, flags & GLTF_EMBED_IMAGES ? 1 : 0]);
      const name = cstr(baseName);
      const status = alloc(new Uint8Array(16));
      const p = call(() => mod.x.kfw_export(h, flags, staticFrame, first, last, fps, rate,
        name, table, mod.out, status));
      const [st, limit, a, b] = new Int32Array(mod.x.memory.buffer, status, 4);
      const size = new Uint32Array(mod.x.memory.buffer, mod.out, 1)[0];
      this.#reportWarnings(o.onWarning, images);
      if (!p) {
        if (st === STATUS_LIMIT && limit === 1)
          throw fail(`exportGlb: frames ${a}..${b} at ${rate} samples per frame are over ` +
            '1000000 samples; choose fewer with frames: [A, B]');
        if (st === STATUS_LIMIT && limit === 2)
          throw fail('exportGlb: over 20000000 samples for one property; export fewer ' +
            'frames (frames: [A, B]) or a lower rate');
        if (st === STATUS_LIMIT && limit === 3)
          throw fail('exportGlb: the export is over 4 GB, too big for a .glb');
        throw fail(`exportGlb: ${st === STATUS_NOMEM || st === 0 ? 'out of memory' : 'failed'}`);
      }
      const bytes = new Uint8Array(mod.x.memory.buffer, p, size).slice();
      mod.x.kfw_gltf_free();
      return bytes;
    } finally {
      if (!broken)
        for (const p of blocks)
          mod.x.kfw_free(p);
    }
  }

  #reportWarnings(onWarning, images) {
    const size = new Uint32Array(mod.x.memory.buffer, mod.out, 1);
    const p = mod.x.kfw_warnings_text(mod.out);
    const n = size[0];
    if (!onWarning || !p || !n)
      return;
    const b = new Uint8Array(mod.x.memory.buffer, p, n).slice();
    const file = this.fileName || 'input';
    for (let at = 0; at < n;) {
      const kind = b[at];
      let end = at + 1;
      while (end < n && b[end])
        end++;
      const map = latin1(b.subarray(at + 1, end));
      at = end + 1;
      const found = images.find((im) => im.name === map);
      const message = kind === 2
        ? `${file}: texture map '${found ? found.key : map}' is neither PNG nor JPEG, which ` +
          'glTF requires; left out'
        : `${file}: texture map '${map}' not found beside the file; left out`;
      onWarning(message, { kind: kind === 2 ? 'type' : 'missing', map });
    }
  }

  // kf3ds_bake_fit_step (`kf3ds bake --tolerance T`): plan's step halved
  // until an engine that lerps the baked matrices stays within T.
  #fitStep(h, plan, tolerance) {
    if (typeof tolerance !== 'number')
      throw new TypeError(`kf3ds: bake: tolerance must be a number, not ${describe(tolerance)}`);
    if (!(tolerance >= 1e-9 && tolerance <= 0.1))
      throw new RangeError('kf3ds: bake: tolerance must be from 1e-9 to 0.1 of the extent');
    const buf = copyIn(new Uint8Array(48));
    try {
      const frames = new Int32Array(mod.x.memory.buffer, buf, 4);
      frames.set([plan.first, plan.step, plan.scale, plan.count]);
      call(() => mod.x.kfw_bake_fit(h, tolerance, buf, buf + 16, buf + 32));
      const [first, step, scale, count] = new Int32Array(mod.x.memory.buffer, buf, 4);
      const [worst, frame] = new Float64Array(mod.x.memory.buffer, buf + 16, 2);
      const [status, limit, node] = new Int32Array(mod.x.memory.buffer, buf + 32, 3);
      Object.assign(plan, { first, step, scale: scale >>> 0, count: count >>> 0 });
      if (status === 7) // KF3DS_ERR_LIMIT
        throw fail(`bake: ${this.fileName || 'input'}: tolerance ${tolerance}: at step ` +
          `${step / (scale >>> 0)} (${count >>> 0} frames) an engine that lerps the baked ` +
          `matrices still strays ${worst.toPrecision(3)} of the extent (node ${node}, frame ` +
          `${frame}), and half that step ${['', 'would have more than 6 decimals',
            'would make over a million frames', 'would not fit 32-bit frame numbers'][limit]}: ` +
          'bake fewer frames or allow more');
      if (status !== 0)
        throw fail(`bake: ${this.fileName || 'input'}: ` +
          `${status === 3 ? 'out of memory' : 'bad options'}`);
    } finally {
      if (!broken)
        mod.x.kfw_free(buf);
    }
  }

  /** The animation baked into a .kfb file (docs/kfb.md), the bytes of
   *  `kf3ds bake FILE -o OUT.kfb` with the same options: frames [A, B] and
   *  step (numbers or decimal strings, at most 6 decimals; default the
   *  file's segment, step 1), fixed (16.16 fixed point), fracBits (0 to 28
   *  or 'auto'; implies fixed), noMeshes, nodes (names: only those),
   *  tolerance (`--tolerance`: the step halved until an engine that lerps
   *  the baked matrices stays within that fraction of the extent between
   *  frames, docs/kfb.md). A damaged file is refused, as the command
   *  refuses it. */
  bake(opts) {
    const h = this.#handle('bake');
    const o = options(opts, 'bake', ['frames', 'step', 'fixed', 'fracBits', 'noMeshes',
      'nodes', 'tolerance']);
    if (!this.ok)
      throw fail(`bake: ${this.fileName || 'input'}: ${this.error.message}; bake needs a ` +
        'file that loads without errors');
    if (!this.nodes.length)
      throw fail(`bake: ${this.fileName || 'input'}: no keyframer nodes: a static model, ` +
        'nothing to bake (exportGlb writes a static model)');
    let flags = 0, fracBits = 0;
    for (const [key, bit] of [['fixed', BAKE_FIXED], ['noMeshes', BAKE_NO_MESHES]]) {
      if (o[key] === undefined)
        continue;
      if (typeof o[key] !== 'boolean')
        throw new TypeError(`kf3ds: bake: ${key} must be true or false, not ${describe(o[key])}`);
      if (o[key])
        flags |= bit;
    }
    let bits = 16;
    if (o.fracBits !== undefined) {
      flags |= BAKE_FIXED;
      if (o.fracBits === 'auto') {
        bits = -1;
        fracBits = -1;
      } else {
        bits = integer(o.fracBits, "bake: fracBits (or 'auto')", 0, 28);
        fracBits = bits === 16 ? 0 : bits === 0 ? -2 : bits;
      }
    }
    const plan = planFrames(o, this.segment);
    if (o.tolerance !== undefined)
      this.#fitStep(h, plan, o.tolerance);
    let names = [];
    if (o.nodes !== undefined) {
      if (!Array.isArray(o.nodes) || !o.nodes.length ||
        o.nodes.some((x) => typeof x !== 'string' || !x))
        throw new TypeError('kf3ds: bake: nodes must be a list of node names');
      names = o.nodes;
    }
    const blocks = [];
    try {
      const list = copyIn(utf8(names.map((x) => x + '\0').join('') || '\0'));
      blocks.push(list);
      const out = copyIn(new Uint8Array(24));
      blocks.push(out);
      const p = call(() => mod.x.kfw_bake(h, flags, fracBits, plan.first, plan.step,
        plan.scale, plan.count, list, names.length, mod.out, out, out + 16));
      const [, problem, fits] = new Int32Array(mod.x.memory.buffer, out, 3);
      const largest = new Float64Array(mod.x.memory.buffer, out + 16, 1)[0];
      if (!p) {
        const file = this.fileName || 'input';
        if (problem === 3)
          throw fail(`bake: ${file}: nodes: no node is called ` +
            `'${cstring(mod.x.kfw_bake_missing())}'`);
        if (problem === 5)
          throw fail(`bake: ${file}: the baked file would exceed 4 GiB: bake fewer frames ` +
            '(frames, step) or nodes (nodes)');
        if (problem === 4)
          throw fail(fits >= 0
            ? `bake: ${file}: a value of magnitude ${largest.toPrecision(6)} does not fit ` +
              `${32 - bits}.${bits} fixed point: use fracBits ${fits} or less (or 'auto')`
            : `bake: ${file}: a value of magnitude ${largest.toPrecision(6)} does not fit ` +
              '32-bit fixed point: bake without fixed');
        throw fail(`bake: ${file}: ${problem === 6 ? 'out of memory' : 'bad options'}`);
      }
      const size = new Uint32Array(mod.x.memory.buffer, mod.out, 1)[0];
      const bytes = new Uint8Array(mod.x.memory.buffer, p, size).slice();
      mod.x.kfw_bake_free(p);
      return bytes;
    } finally {
      if (!broken)
        for (const p of blocks)
          mod.x.kfw_free(p);
    }
  }

  /** Gives the scene's memory back; any later use of the scene throws.
   *  Calling it again does nothing. */
  free() {
    if (!this.#h)
      return;
    const h = this.#h;
    this.#h = 0;
    registry?.unregister(this.#token);
    if (mod && !broken && liveHandles.get(h) === this.#id) {
      liveHandles.delete(h);
      mod.x.kfw_scene_free(h);
    }
  }
}

function overlayBits(v) {
  if (v === undefined)
    return 0;
  const list = typeof v === 'string' ? v.split(',') : v;
  if (!Array.isArray(list))
    throw new TypeError('kf3ds: render: overlays must be a list of names (hierarchy, pivots, ' +
      `cameras, lights, grid, names, all, none), not ${describe(v)}`);
  let bits = 0;
  for (const name of list) {
    if (name === 'all')
      bits |= 0x3F;
    else if (name === 'none')
      bits = 0;
    else if (typeof name === 'string' && Object.hasOwn(OVERLAYS, name))
      bits |= OVERLAYS[name];
    else
      throw new TypeError(`kf3ds: render: unknown overlay ${describe(name)} (hierarchy, ` +
        'pivots, cameras, lights, grid, names, all, none)');
  }
  return bits;
}

export default { init, load, version, decodeCel, Scene };
