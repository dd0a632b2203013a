// Damaged inputs (bytes changed, cut, chunks with absurd lengths and counts,
// a seeded generator so that every run sees the same files): the module
// never traps, answers as the command does, and works as before afterwards.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, loadModule, readData, tmp, tool } from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2C1B3C6D) + 0x9E3779B9) >>> 0;
    s ^= s >>> 13;
    return (s >>> 0) % n;
  };
}

function mutate(bytes, r) {
  const b = bytes.slice();
  const kind = r(4);
  if (kind === 0) {
    for (let i = r(8) + 1; i > 0; i--)
      b[r(b.length)] = r(256);
    return b;
  }
  if (kind === 1)
    return b.subarray(0, r(b.length));
  // A 32-bit length or count somewhere made huge, small or zero.
  const at = r(b.length - 4);
  const v = [0, 1, 5, 6, 0x7FFFFFFF, 0xFFFFFFFF, 0xFFFF, r(1 << 20)][r(8)];
  new DataView(b.buffer).setUint32(at, v >>> 0, true);
  if (kind === 3)
    new DataView(b.buffer).setUint16(r(b.length - 2), [0xFFFF, 0, 1][r(3)], true);
  return b;
}

// `kf3ds eval --json` of a damaged file: it prints the JSON and exits 1.
function commandEval(file, frame) {
  try {
    return JSON.parse(execFileSync(tool, ['eval', file, '--json', '-q', '--frame', String(frame)],
      { stdio: ['ignore', 'pipe', 'ignore'] }).toString());
  } catch (e) {
    const text = e.stdout?.toString() ?? '';
    return text.startsWith('{') ? JSON.parse(text) : null;
  }
}

test('damaged files: no trap, the command\'s numbers, the module intact', () => {
  const r = rng(26);
  const originals = dataFiles.map(readData);
  let loaded = 0, refused = 0, compared = 0;
  for (let n = 0; n < 400; n++) {
    const bytes = mutate(originals[n % originals.length], r);
    let scene;
    try {
      scene = kf3ds.load(bytes);
      loaded++;
    } catch (e) {
      assert.ok(e.diagnostics, `mutant ${n}: ${e.message}`); // a load error, not a trap
      refused++;
      continue;
    }
    try {
      const frame = r(80) - 10 + r(4) / 4;
      const world = scene.eval(frame);
      scene.render({ width: 24, height: 18, frame });
      for (let i = 0; i < scene.nodes.length; i++)
        scene.vertices(i, frame);
      try {
        kf3ds.load(scene.save()).free();
      } catch (e) {
        assert.doesNotMatch(e.message, /internal error/);
      }
      if (n % 10 === 0) {
        const file = path.join(tmp, `mutant${n}.3ds`);
        fs.writeFileSync(file, bytes);
        const json = commandEval(file, frame);
        assert.ok(json, `mutant ${n}: the command loads it too`);
        const nodes = json.frames[0].nodes;
        assert.equal(scene.nodes.length, nodes.length, `mutant ${n}`);
        nodes.forEach((node, i) => {
          for (let k = 0; k < 16; k++) {
            // (JSON prints NaN and infinities as null)
            const a = world[i * 16 + k], b = node.world[k];
            assert.ok(b === null ? !Number.isFinite(a) : Object.is(a, Math.fround(b)),
              `mutant ${n} node ${i} world[${k}]: ${a} vs ${node.world[k]}`);
          }
        });
        compared++;
      }
    } finally {
      scene.free();
    }
  }
  assert.ok(loaded > 100 && compared > 10, `${loaded} loaded, ${refused} refused`);
  const s = kf3ds.load(originals[0]);
  assert.equal(s.ok, true);
  s.free();
});
