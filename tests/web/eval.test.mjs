// scene.eval and scene.vertices give the numbers of `kf3ds eval --json
// --verts` bit for bit (the command prints floats with 9 significant digits,
// which read back as float32 exactly).
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, evalJson, kf3ds as runTool, loadModule, readData } from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

// JSON prints NaN and infinities as null.
const f32 = (v) => (v === null ? null : Math.fround(v));
function sameFloat(a, b) {
  return b === null ? !Number.isFinite(a) : Object.is(a, b);
}

function compare(scene, json, where) {
  assert.equal(json.frames.length > 0, true);
  for (const f of json.frames) {
    const world = scene.eval(f.frame);
    assert.equal(world.length, f.nodes.length * 16, `${where}: node count`);
    f.nodes.forEach((node, i) => {
      assert.equal(scene.nodes[i].name, node.name, `${where}: node ${i} name`);
      assert.equal(scene.nodes[i].type, node.type, `${where}: node ${i} type`);
      assert.equal(scene.nodes[i].parent, node.parent, `${where}: node ${i} parent`);
      assert.equal(scene.nodes[i].id, node.id, `${where}: node ${i} id`);
      for (let k = 0; k < 16; k++)
        assert.ok(sameFloat(world[i * 16 + k], f32(node.world[k])),
          `${where}: frame ${f.frame} node ${i} world[${k}]: ${world[i * 16 + k]} vs ` +
          `${node.world[k]}`);
      const verts = scene.vertices(i, f.frame);
      if (!node.verts) {
        assert.equal(verts, null, `${where}: node ${i} places no mesh`);
        return;
      }
      assert.equal(verts.length, node.verts.length * 3, `${where}: node ${i} vertex count`);
      node.verts.forEach((v, k) => {
        for (let c = 0; c < 3; c++)
          assert.ok(sameFloat(verts[k * 3 + c], f32(v[c])),
            `${where}: frame ${f.frame} node ${i} vertex ${k}[${c}]: ${verts[k * 3 + c]} vs ${v[c]}`);
      });
    });
  }
}

for (const file of dataFiles) {
  test(`eval ${path.basename(file)} equals kf3ds eval --json bit for bit`, () => {
    const scene = kf3ds.load(readData(file), { fileName: path.basename(file) });
    try {
      const { start, end } = scene.segment;
      const frames = [start, end, 0, 1, 2, 7, 7.5, 12.25, 1 / 3, 33.3333, 59.999, -5, -0.5,
        end + 10.75, 1000, 1e6 + 0.5];
      compare(scene, evalJson(file, frames), path.basename(file));
      // Backwards too: the poses' search hints may not change anything.
      compare(scene, evalJson(file, frames.slice().reverse()), path.basename(file));
    } finally {
      scene.free();
    }
  });
}

test('eval with noEase equals kf3ds eval --no-ease', () => {
  const file = dataFiles.find((f) => f.endsWith('arm.3ds'));
  const scene = kf3ds.load(readData(file));
  const json = JSON.parse(
    (runTool('eval', file, '--json', '--no-ease', '--frame', '13.5')).toString());
  const world = scene.eval(13.5, { noEase: true });
  json.frames[0].nodes.forEach((n, i) => {
    for (let k = 0; k < 16; k++)
      assert.ok(sameFloat(world[i * 16 + k], f32(n.world[k])));
  });
  scene.free();
});
