// scene.save gives the bytes `kf3ds rewrite` writes, with the same options.
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

let outputs = 0;
function rewrite(file, ...args) {
  const out = path.join(tmp, `w${outputs++}.3ds`);
  try {
    runTool('rewrite', file, '-q', '-o', out, ...args);
  } catch (e) {
    if (!fs.existsSync(out))
      throw e;
  }
  return new Uint8Array(fs.readFileSync(out));
}

const cases = [
  [undefined, []],
  [{ canonical: true }, ['--canonical']],
  [{ dropUnknown: true }, ['--drop-unknown']],
  [{ noKeyframer: true }, ['--no-keyframer']],
  [{ segment: [5, 40] }, ['--frames', '5:40']],
  [{ canonical: true, dropUnknown: true, segment: [-10, 100] },
    ['--canonical', '--drop-unknown', '--frames', '-10:100']],
];

for (const file of dataFiles) {
  test(`save ${path.basename(file)} equals kf3ds rewrite byte for byte`, () => {
    const scene = kf3ds.load(readData(file));
    for (const [opts, args] of cases)
      assert.deepEqual(scene.save(opts), rewrite(file, ...args), args.join(' ') || '(plain)');
    scene.free();
  });
}

test('a saved file loads and evaluates as the original', () => {
  for (const file of dataFiles) {
    const a = kf3ds.load(readData(file));
    const b = kf3ds.load(a.save());
    assert.equal(b.ok, true);
    for (const f of [0, 3.5, 17, 60])
      assert.deepEqual(b.eval(f), a.eval(f));
    a.free();
    b.free();
  }
});

test('a cut file saves as kf3ds rewrite repairs it', () => {
  const whole = readData(dataFiles.find((f) => f.endsWith('arm.3ds')));
  const cut = whole.subarray(0, 3500);
  const file = path.join(tmp, 'cut-save.3ds');
  fs.writeFileSync(file, cut);
  const scene = kf3ds.load(cut);
  assert.deepEqual(scene.save(), rewrite(file));
  scene.free();
});
