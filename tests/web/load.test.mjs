// kf3ds.load: every data/*.3ds loads with what `kf3ds info` lists; a cut file
// gives the command's diagnostics and everything that could be read; what is
// not a 3DS file throws with its diagnostic.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, kf3ds as runTool, loadModule, readData, tmp } from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

// `kf3ds info FILE`: its counts, segment, node lines and diagnostic lines
// (standard output; the exit status is 1 for a damaged file).
function info(file) {
  let text;
  try {
    text = runTool('info', file, '-q').toString();
  } catch (e) {
    text = e.stdout.toString();
  }
  const count = (re) => Number(text.match(re)[1]);
  const seg = text.match(/segment (-?\d+)\.\.(-?\d+), animation length (-?\d+)/);
  const nodes = [...text.matchAll(/^ *\[(\d+)\] (\w+) (.*?)(?: pivot \(|: |$)/gm)]
    .map((m) => ({ index: Number(m[1]), type: m[2], name: m[3] }));
  const diags = [...text.matchAll(/^ {2}(error|warning): offset (\d+)(?:, chunk 0x([0-9A-F]{4}) (\S+))?: (.*)$/gm)]
    .map((m) => ({ severity: m[1], offset: Number(m[2]), chunkId: m[3] ? parseInt(m[3], 16) : 0,
      chunk: m[4] ?? '', message: m[5] }));
  return {
    meshes: count(/^meshes: (\d+)/m), materials: count(/^materials: (\d+)/m),
    cameras: count(/^cameras: (\d+)/m), lights: count(/^lights: (\d+)/m),
    nodes: /^nodes: (\d+)/m.test(text) ? count(/^nodes: (\d+)/m) : 0,
    segment: seg && { start: Number(seg[1]), end: Number(seg[2]) },
    animLength: seg && Number(seg[3]), nodeLines: nodes, diags,
  };
}

function sameAsInfo(scene, file) {
  const i = info(file);
  assert.equal(scene.meshes.length, i.meshes, 'meshes');
  assert.equal(scene.materials.length, i.materials, 'materials');
  assert.equal(scene.cameras.length, i.cameras, 'cameras');
  assert.equal(scene.lights.length, i.lights, 'lights');
  assert.equal(scene.nodes.length, i.nodes, 'nodes');
  if (i.segment) {
    assert.deepEqual(scene.segment, i.segment);
    assert.equal(scene.animLength, i.animLength);
  }
  for (const n of i.nodeLines) {
    assert.equal(scene.nodes[n.index].type, n.type);
    assert.ok(n.name.startsWith(scene.nodes[n.index].name), `${n.name} / ${scene.nodes[n.index].name}`);
  }
  assert.equal(scene.diagnostics.length, i.diags.length, 'diagnostics');
  scene.diagnostics.forEach((d, k) => {
    const e = i.diags[k];
    assert.deepEqual({ severity: d.severity, offset: d.offset, chunkId: d.chunkId,
      chunk: d.chunkId ? d.chunk : '', message: d.message }, e);
  });
  return i;
}

for (const file of dataFiles) {
  test(`load ${path.basename(file)}: what kf3ds info lists`, () => {
    const scene = kf3ds.load(readData(file), { fileName: path.basename(file) });
    assert.equal(scene.fileName, path.basename(file));
    assert.equal(scene.ok, true);
    assert.equal(scene.error, null);
    sameAsInfo(scene, file);
    for (const n of scene.nodes) {
      assert.equal(typeof n.name, 'string');
      assert.ok(n.parent >= -1 && n.parent < scene.nodes.length);
      for (const [kind, track] of Object.entries(n.tracks)) {
        assert.ok(track.keys.length > 0, kind);
        for (let k = 1; k < track.keys.length; k++)
          assert.ok(track.keys[k].frame >= track.keys[k - 1].frame, 'keys sorted');
      }
    }
    scene.free();
  });
}

test('arm.3ds: nodes, tracks, cameras, lights and materials', () => {
  const scene = kf3ds.load(readData(dataFiles.find((f) => f.endsWith('arm.3ds'))));
  const upper = scene.nodes.find((n) => n.name === 'UpperArm');
  assert.equal(upper.type, 'object');
  assert.equal(scene.nodes[upper.parent].name, 'Base');
  assert.deepEqual(upper.pivot, [0, 0, -15]);
  assert.equal(upper.tracks.rot.keys.length, 5);
  assert.equal(upper.tracks.rot.keys[0].quat.length, 4);
  assert.equal(upper.tracks.pos.keys[0].value.length, 3);
  const hand = scene.nodes.find((n) => n.name === 'Hand');
  assert.equal(hand.tracks.morph.keys.length, 3);
  assert.equal(typeof hand.tracks.morph.keys[0].morph, 'string');
  assert.equal(hand.tracks.hide.keys.length, 3);
  assert.equal(scene.cameras[0].name, 'Cam01');
  assert.equal(scene.lights[0].spot, true);
  assert.equal(scene.lights[0].target.length, 3);
  assert.equal(scene.materials.length, 3);
  assert.equal(scene.materials[0].diffuse.length, 3);
  scene.free();
});

test('a truncated file: the command\'s diagnostics and everything that could be read', () => {
  const whole = readData(dataFiles.find((f) => f.endsWith('arm.3ds')));
  for (const size of [2000, 3500, whole.length - 7, 1000, 60]) {
    const cut = whole.subarray(0, size);
    const file = path.join(tmp, `cut${size}.3ds`);
    fs.writeFileSync(file, cut);
    const scene = kf3ds.load(cut, { fileName: 'cut.3ds' });
    assert.equal(scene.ok, false, `cut at ${size}`);
    assert.equal(scene.error.severity, 'error');
    const root = scene.diagnostics[0];
    assert.equal(root.code, 'truncated');
    assert.match(root.message, new RegExp(`^truncated: the file ends ${whole.length - size} ` +
      `bytes before its root chunk does; lost: the chunks past offset ${size}`));
    sameAsInfo(scene, file);
    scene.eval(10); // what was read evaluates
    scene.render({ width: 32, height: 24 });
    if (size === 2000) {
      assert.equal(scene.meshes.length, 5, 'the meshes before the cut');
      assert.equal(scene.nodes.length, 0, 'no keyframer left');
    }
    scene.free();
  }
});

test('not a 3DS file: load throws with the diagnostic', () => {
  for (const [bytes, re] of [[new Uint8Array(0), /empty/], [new Uint8Array([1, 2, 3]), /./],
    [new TextEncoder().encode('hello, this is text not 3ds'), /not a 3DS magic/]]) {
    let error;
    assert.throws(() => kf3ds.load(bytes, { fileName: 'x.3ds' }), (e) => (error = e, true));
    assert.match(error.message, /^kf3ds: x\.3ds: /);
    assert.match(error.message, re);
    assert.equal(error.diagnostics.length, 1);
    assert.equal(error.diagnostics[0].severity, 'error');
    assert.equal(error.diagnostics[0].code, 'not a 3DS file');
  }
});

test('load takes a Uint8Array, an ArrayBuffer or any typed array view', () => {
  const bytes = readData(dataFiles[0]);
  const copy = bytes.slice().buffer;
  for (const input of [bytes, copy, new DataView(copy), Buffer.from(bytes)]) {
    const s = kf3ds.load(input);
    assert.equal(s.ok, true);
    s.free();
  }
});
