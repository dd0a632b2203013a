// scene.render gives the pixels of `kf3ds render FILE --frame F --size 160x120
// -o x.png`, with the same options, pixel for pixel (the PNG is RGB, the
// module's picture RGBA with alpha 255).
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, decodePicture, firstDifference, loadModule, readData, renderPng }
  from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

// The command draws the file's texture maps when it finds them beside the
// file; the module draws those the caller gives (setMap), none here.
function same(scene, file, opts, args) {
  const png = renderPng(file, '--no-textures', '--size', `${opts.width}x${opts.height}`, ...args);
  const rgba = scene.render(opts);
  assert.equal(rgba.length, opts.width * opts.height * 4);
  assert.ok(rgba instanceof Uint8ClampedArray);
  const d = firstDifference(rgba, png);
  assert.equal(d, null, `${path.basename(file)} ${args.join(' ')}: first different pixel ` +
    JSON.stringify(d));
}

for (const file of dataFiles) {
  test(`render ${path.basename(file)} equals kf3ds render pixel for pixel`, () => {
    const scene = kf3ds.load(readData(file));
    try {
      const { start, end } = scene.segment;
      for (const frame of [start, 7, 7.5, 12.0625, -3.25, (start + end) / 3, end])
        same(scene, file, { width: 160, height: 120, frame }, ['--frame', String(frame)]);
      // Without a frame: the segment's first, as the command does.
      same(scene, file, { width: 160, height: 120 }, []);
    } finally {
      scene.free();
    }
  });
}

test('render options equal the command\'s', () => {
  const file = dataFiles.find((f) => f.endsWith('arm.3ds'));
  const scene = kf3ds.load(readData(file));
  const size = { width: 160, height: 120 };
  const cases = [
    [{ orbit: [120, -10] }, ['--orbit', '120,-10']],
    [{ shading: 'flat' }, ['--shading', 'flat']],
    [{ shading: 'wire' }, ['--shading', 'wire']],
    [{ overlays: ['hierarchy', 'names'] }, ['--hierarchy', '--names']],
    [{ overlays: 'all' }, ['--overlays', 'all']],
    [{ cull: true }, ['--cull']],
    [{ environment: false }, ['--no-environment']],
    [{ label: false }, ['--no-label']],
    [{ noEase: true }, ['--no-ease']],
    [{ width: 97, height: 31 }, ['--size', '97x31']],
    [{ width: 1, height: 1 }, ['--size', '1x1']],
  ];
  const cams = scene.nodes.filter((n) => n.type === 'camera').map((n) => n.name);
  for (const c of cams)
    cases.push([{ camera: c, overlays: ['cameras', 'lights'] }, ['--camera', c, '--cameras',
      '--lights']]);
  for (const [opts, args] of cases) {
    const o = { ...size, frame: 9.5, ...opts };
    same(scene, file, o, ['--frame', '9.5', ...args]);
  }
  scene.free();
});

test('render through each camera of every file equals --camera', () => {
  for (const file of dataFiles) {
    const scene = kf3ds.load(readData(file));
    const names = new Set(scene.nodes.filter((n) => n.type === 'camera').map((n) => n.name));
    for (const c of scene.cameras)
      names.add(c.name);
    for (const name of names)
      same(scene, file, { width: 160, height: 120, frame: 4, camera: name },
        ['--frame', '4', '--camera', name]);
    scene.free();
  }
});

test('setMap gives the renderer a picture; null takes it away', () => {
  const file = dataFiles.find((f) => f.endsWith('textured.3ds'));
  const scene = kf3ds.load(readData(file));
  const opts = { width: 160, height: 120, frame: 8 };
  const plain = scene.render(opts);
  const m = scene.materials.findIndex((x) => x.maps.texture1);
  assert.ok(m >= 0, 'textured.3ds has a texture map');
  const w = 8, h = 8, data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++)
    data.set(((i >> 3) + i) & 1 ? [255, 0, 255, 255] : [0, 255, 0, 255], i * 4);
  assert.equal(scene.setMap(m, 'texture1', { width: w, height: h, data }), true);
  assert.notDeepEqual(scene.render(opts), plain);
  assert.equal(scene.setMap(scene.materials[m].name, 'bump', { width: w, height: h, data }),
    false, 'bump maps are not drawn');
  scene.setMap(m, 'texture1', null);
  assert.deepEqual(scene.render(opts), plain);
  scene.free();
});

test('textured.3ds with its maps given by setMap equals kf3ds render with its maps', () => {
  const file = dataFiles.find((f) => f.endsWith('textured.3ds'));
  const scene = kf3ds.load(readData(file));
  for (const m of scene.materials)
    for (const [kind, map] of Object.entries(m.maps)) {
      const picture = decodePicture(path.join(path.dirname(file), map.file.toLowerCase()));
      assert.equal(scene.setMap(m.name, kind, picture), true, `${m.name} ${kind}`);
    }
  for (const [opts, args] of [[{ frame: 8 }, ['--frame', '8']],
    [{ frame: 21.5, camera: 'Cam01' }, ['--frame', '21.5', '--camera', 'Cam01']],
    [{ frame: 40, orbit: [200, 40], cull: true }, ['--frame', '40', '--orbit', '200,40', '--cull']]]) {
    const png = renderPng(file, '--size', '160x120', ...args);
    const d = firstDifference(scene.render({ width: 160, height: 120, ...opts }), png);
    assert.equal(d, null, `${args.join(' ')}: first different pixel ${JSON.stringify(d)}`);
  }
  scene.free();
});
