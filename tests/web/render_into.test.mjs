// scene.render({ into }) (docs/web.md, "scene.render"): the pixels go into the
// caller's array, which is returned, and are the pixels of `kf3ds render`
// (as render without `into` gives them); a wrong array throws before anything
// is drawn and leaves the array and the scene as they were.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { firstDifference, loadModule, readData, renderPng, root } from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

const arm = path.join(root, 'data', 'arm.3ds');

test('render into a Uint8ClampedArray and a Uint8Array: kf3ds render\'s pixels', () => {
  const scene = kf3ds.load(readData(arm), { fileName: 'arm.3ds' });
  const clamped = new Uint8ClampedArray(160 * 120 * 4);
  const bytes = new Uint8Array(160 * 120 * 4);
  for (const frame of [0, 12.5, 30, 60]) {
    const png = renderPng(arm, '--no-textures', '--size', '160x120', '--frame', String(frame));
    const a = scene.render({ width: 160, height: 120, frame, into: clamped });
    assert.equal(a, clamped, 'the array given is returned');
    assert.equal(firstDifference(a, png), null, `frame ${frame}`);
    const b = scene.render({ width: 160, height: 120, frame, into: bytes });
    assert.equal(b, bytes);
    assert.deepEqual(new Uint8ClampedArray(b.buffer), clamped);
    assert.deepEqual(scene.render({ width: 160, height: 120, frame }), clamped);
  }
  scene.free();
});

test('render into: a wrong array throws and changes nothing', () => {
  const scene = kf3ds.load(readData(arm), { fileName: 'arm.3ds' });
  const before = scene.render({ width: 32, height: 24, frame: 5 });
  const small = new Uint8ClampedArray(32 * 24 * 4 - 1).fill(7);
  assert.throws(() => scene.render({ width: 32, height: 24, into: small }),
    (e) => e instanceof RangeError && /into holds 3071 bytes, not 32x24x4 = 3072/.test(e.message));
  assert.ok(small.every((v) => v === 7), 'left as it was');
  for (const bad of [new Float32Array(32 * 24 * 4), [0, 0, 0, 255], 'pixels', null,
    new ArrayBuffer(32 * 24 * 4), new Uint16Array(32 * 24 * 4)])
    assert.throws(() => scene.render({ width: 32, height: 24, into: bad }), TypeError);
  assert.deepEqual(scene.render({ width: 32, height: 24, frame: 5 }), before);
  scene.free();
  assert.throws(() => scene.render({ width: 32, height: 24, into: new Uint8Array(3072) }),
    /freed/);
});
