// Misuse throws a clear Error (TypeError, RangeError) and leaves the module as
// it was: use after free, wrong argument types, absurd sizes, unknown options.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { dataFiles, loadModule, readData } from './helpers.mjs';

let kf3ds, arm;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
  arm = readData(dataFiles.find((f) => f.endsWith('arm.3ds')));
});

test('use after free throws; free twice does nothing', () => {
  const s = kf3ds.load(arm);
  const node = s.nodes[1];
  s.free();
  assert.equal(s.freed, true);
  for (const f of [() => s.eval(0), () => s.vertices(1, 0), () => s.render(), () => s.save(),
    () => s.setMap(0, 'texture1', null), () => s.setBackground(null), () => node.tracks])
    assert.throws(f, /freed/);
  s.free();
  // The address of a freed scene may come back for the next: the old object
  // still refuses.
  const t = kf3ds.load(arm);
  assert.throws(() => s.eval(0), /freed/);
  assert.throws(() => node.tracks, /freed/);
  assert.ok(t.nodes[1].tracks.rot);
  t.free();
});

test('wrong arguments to load throw', () => {
  for (const bad of [undefined, null, 'arm.3ds', 42, [1, 2, 3], {}])
    assert.throws(() => kf3ds.load(bad), TypeError);
  assert.throws(() => kf3ds.load(arm, 'arm.3ds'), TypeError);
  assert.throws(() => kf3ds.load(arm, { fileName: 3 }), TypeError);
  assert.throws(() => kf3ds.load(arm, { filename: 'x' }), /unknown option 'filename'/);
  assert.throws(() => new kf3ds.Scene(1, 1, '', {}), TypeError);
});

test('wrong arguments to eval, vertices, render, setMap and save throw', () => {
  const s = kf3ds.load(arm);
  const throwsAll = (cases, type) => {
    for (const f of cases)
      assert.throws(f, type, f.toString());
  };
  throwsAll([() => s.eval(), () => s.eval('1'), () => s.eval(NaN), () => s.eval(Infinity),
    () => s.eval(1n), () => s.eval(0, { noease: true }), () => s.vertices(1.5, 0),
    () => s.vertices(1, '0'), () => s.render('big'), () => s.render({ width: 1.5 }),
    () => s.render({ width: '160' }), () => s.render({ frame: NaN }),
    () => s.render({ camera: {} }), () => s.render({ orbit: [1] }),
    () => s.render({ orbit: '30,20' }), () => s.render({ shading: 'phong' }),
    () => s.render({ overlays: ['grid', 'bogus'] }), () => s.render({ overlays: 7 }),
    () => s.render({ cull: 'yes' }), () => s.render({ label: 0 }),
    () => s.render({ camera: 'Cam01', orbit: [0, 0] }), () => s.render({ size: '1x1' }),
    () => s.setMap(0, 'texture1', 'brick.bmp'), () => s.setMap(0, 'texture1',
      { width: 2, height: 2, data: [1, 2, 3] }), () => s.save({ canonical: 1 }),
    () => s.save({ segment: '0:10' }), () => s.save({ segment: [1.5, 3] })], TypeError);
  throwsAll([() => s.vertices(-1, 0), () => s.vertices(s.nodes.length, 0),
    () => s.render({ width: 0 }), () => s.render({ height: -5 }),
    () => s.render({ width: 20000 }), () => s.render({ width: 16384, height: 16384 }),
    () => s.render({ frame: 1e10 }), () => s.render({ orbit: [0, 91] }),
    () => s.render({ background: 0x1000000 }), () => s.render({ camera: 99 }),
    () => s.setMap(99, 'texture1', null), () => s.setMap(0, 'nonsense', null),
    () => s.setMap(0, 'texture1', { width: 2, height: 2, data: new Uint8Array(15) }),
    () => s.setMap(0, 'texture1', { width: 1e6, height: 1, data: new Uint8Array(4) }),
    () => s.save({ segment: [10, 5] })], RangeError);
  assert.throws(() => s.vertices('NoSuchNode', 0), /no node named 'NoSuchNode'/);
  assert.throws(() => s.render({ camera: 'Nope' }), /no camera 'Nope' \(the file has: Cam01\)/);
  assert.throws(() => s.render({ camera: 0 }), /not a camera node/);
  assert.throws(() => s.setMap('Nope', 'texture1', null), /no material named/);
  s.free();
});

test('after all that the module answers as before', () => {
  const a = kf3ds.load(arm);
  const world = a.eval(21.5), picture = a.render({ width: 64, height: 48, frame: 21.5 });
  const saved = a.save();
  for (let i = 0; i < 50; i++) {
    const s = kf3ds.load(arm);
    assert.throws(() => s.render({ width: 0 }));
    assert.throws(() => s.eval('x'));
    s.free();
    assert.throws(() => s.save());
  }
  // A big picture makes the module's memory grow; views taken before are stale.
  const big = a.render({ width: 1600, height: 1200, frame: 3 });
  assert.equal(big.length, 1600 * 1200 * 4);
  assert.deepEqual(a.eval(21.5), world);
  assert.deepEqual(a.render({ width: 64, height: 48, frame: 21.5 }), picture);
  assert.deepEqual(a.save(), saved);
  assert.deepEqual(a.vertices('UpperArm', 21.5), a.vertices(1, 21.5));
  a.free();
});

test('scenes are independent', () => {
  const a = kf3ds.load(arm), b = kf3ds.load(readData(dataFiles.find((f) => f.endsWith('orrery.3ds'))));
  const wa = a.eval(5), wb = b.eval(5);
  b.free();
  assert.deepEqual(a.eval(5), wa);
  assert.notEqual(wa.length, wb.length);
  a.free();
});

test('wrong arguments to exportGlb and bake throw; absurd sizes are refused', () => {
  const s = kf3ds.load(arm, { fileName: 'arm.3ds' });
  const throwsAll = (cases, type) => {
    for (const f of cases)
      assert.throws(f, type, f.toString());
  };
  throwsAll([() => s.exportGlb('glb'), () => s.exportGlb({ format: 'gltf' }),
    () => s.exportGlb({ animation: 'no' }), () => s.exportGlb({ fps: '30' }),
    () => s.exportGlb({ rate: 1.5 }), () => s.exportGlb({ frames: '0:10' }),
    () => s.exportGlb({ frames: [0.5, 3] }), () => s.exportGlb({ staticFrame: 'x' }),
    () => s.exportGlb({ staticFrame: 3, rate: 2 }), () => s.exportGlb({ images: 'brick.bmp' }),
    () => s.exportGlb({ images: [new Uint8Array(3)] }),
    () => s.exportGlb({ images: { 'a.png': 'bytes' } }),
    () => s.exportGlb({ images: new Map([[7, new Uint8Array(3)]]) }),
    () => s.exportGlb({ onWarning: 'console.log' }), () => s.exportGlb({ cubic: 1 }),
    () => s.bake([0, 10]), () => s.bake({ fixed: 'yes' }), () => s.bake({ fracBits: 'max' }),
    () => s.bake({ fracBits: 1.5 }), () => s.bake({ frames: '0:10' }),
    () => s.bake({ frames: ['a', 'b'] }), () => s.bake({ step: {} }),
    () => s.bake({ nodes: 'UpperArm' }), () => s.bake({ nodes: [] }),
    () => s.bake({ nodes: [3] }), () => s.bake({ c_source: 'x' }),
    () => s.bake({ tolerance: '1e-4' })], TypeError);
  throwsAll([() => s.exportGlb({ fps: 0 }), () => s.exportGlb({ fps: 1e6 }),
    () => s.exportGlb({ rate: 0 }), () => s.exportGlb({ rate: 1001 }),
    () => s.exportGlb({ frames: [10, 5] }), () => s.exportGlb({ frames: [0, 3e9] }),
    () => s.bake({ fracBits: 29 }), () => s.bake({ fracBits: -1 }),
    () => s.bake({ frames: [10, 5] }), () => s.bake({ step: 0 }), () => s.bake({ step: -1 }),
    () => s.bake({ step: '0.0000001' }), () => s.bake({ frames: [0, 3e9] }),
    () => s.bake({ frames: [0, 2e9], step: '0.000001' }), () => s.bake({ tolerance: 0 }),
    () => s.bake({ tolerance: 0.5 }), () => s.bake({ tolerance: NaN })], RangeError);
  // What the library refuses, in the command's words.
  assert.throws(() => s.exportGlb({ frames: [0, 2000000], rate: 1000 }),
    /exportGlb: frames 0\.\.2000000 at 1000 samples per frame are over 1000000 samples/);
  assert.throws(() => s.bake({ nodes: ['UpperArm', 'Nope'] }),
    /bake: arm\.3ds: nodes: no node is called 'Nope'/);
  assert.throws(() => s.bake({ fracBits: 28 }), /does not fit 4\.28 fixed point: use fracBits \d+ or less/);
  assert.throws(() => s.bake({ frames: [0, 2000000000] }), /would exceed 4 GiB/);
  assert.throws(() => s.bake({ tolerance: 1e-9 }),
    /bake: arm\.3ds: tolerance 1e-9: at step 0\.015625 .* would have more than 6 decimals/);
  // A static model has nothing to bake (the command says the same).
  const flat = kf3ds.load(s.save({ noKeyframer: true }), { fileName: 'flat.3ds' });
  assert.throws(() => flat.bake(), /bake: flat\.3ds: no keyframer nodes: a static model/);
  assert.ok(flat.exportGlb().length > 0);
  flat.free();
  // A freed scene has nothing at all.
  s.free();
  throwsAll([() => s.exportGlb(), () => s.bake()], /freed/);
  // And the module answers as before.
  const t = kf3ds.load(arm, { fileName: 'arm.3ds' });
  assert.deepEqual(t.exportGlb(), t.exportGlb());
  assert.equal(t.bake({ nodes: ['UpperArm'] }).length > 0, true);
  t.free();
});

test('zoom and pan move the orbit view only', () => {
  const s = kf3ds.load(arm);
  const plain = s.render({ width: 64, height: 48, frame: 3 });
  assert.deepEqual(s.render({ width: 64, height: 48, frame: 3, zoom: 1, pan: [0, 0] }), plain);
  assert.notDeepEqual(s.render({ width: 64, height: 48, frame: 3, zoom: 0.5 }), plain);
  assert.notDeepEqual(s.render({ width: 64, height: 48, frame: 3, pan: [0.1, 0] }), plain);
  assert.throws(() => s.render({ zoom: 0 }), RangeError);
  assert.throws(() => s.render({ zoom: '2' }), TypeError);
  assert.throws(() => s.render({ pan: [1] }), TypeError);
  assert.throws(() => s.render({ pan: [0, 1e9] }), RangeError);
  assert.throws(() => s.render({ camera: 'Cam01', zoom: 2 }), /not a camera/);
  s.free();
});

test('wrong arguments to decodeCel throw; bad pictures throw with the byte at fault', () => {
  for (const bad of [undefined, null, 'checker.cel', 42, [0x19, 0x91], {}])
    assert.throws(() => kf3ds.decodeCel(bad), TypeError);
  // absurd sizes: a header that claims 65535×65535 pixels, a side of 0
  const huge = new Uint8Array(800);
  huge.set([0x19, 0x91, 0xFF, 0xFF, 0xFF, 0xFF]);
  assert.throws(() => kf3ds.decodeCel(huge), (e) => /^kf3ds: decodeCel: /.test(e.message) &&
    Number.isInteger(e.offset));
  const empty = new Uint8Array(800);
  empty.set([0x19, 0x91]);
  assert.throws(() => kf3ds.decodeCel(empty), /^Error: kf3ds: decodeCel: /);
  // random bytes never break the module
  let seed = 7;
  for (let i = 0; i < 200; i++) {
    const b = new Uint8Array(8 + (i * 37) % 900);
    for (let k = 0; k < b.length; k++)
      b[k] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    if (i % 3 === 0)
      b.set([0x19, 0x91]);
    else if (i % 3 === 1)
      b.set([0, 0x95], 4);
    try {
      const p = kf3ds.decodeCel(b);
      assert.equal(p.data.length, p.width * p.height * 4);
    } catch (e) {
      assert.match(e.message, /^kf3ds: decodeCel: /);
    }
  }
  assert.ok(kf3ds.load(arm).nodes.length > 0, 'the module still works');
});

test('wrong paths and follow options to render throw', () => {
  const s = kf3ds.load(arm);
  try {
    for (const f of [() => s.render({ paths: 1 }), () => s.render({ paths: 'yes' }),
      () => s.render({ follow: 'now' }), () => s.render({ follow: NaN }),
      () => s.render({ follow: [3] }), () => s.render({ follow: true, camera: 'Cam01' })])
      assert.throws(f, TypeError, f.toString());
    assert.throws(() => s.render({ follow: 1e12 }), RangeError);
    // and the module still draws
    assert.equal(s.render({ width: 8, height: 6, paths: true, follow: 3 }).length, 8 * 6 * 4);
  } finally {
    s.free();
  }
});
