// kf3ds.decodeCel, the Animator CEL/PIC decoder of `kf3ds render`
// (tools/front/cel_decode.c) in the module: the pictures equal an
// independent reading (tests/web/helpers.mjs's decodePicture; a Pro PIC
// built here byte by byte with known colours), and textured.3ds drawn with
// its CEL map decoded so equals `kf3ds render` with the map beside the file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, decodePicture, firstDifference, loadModule, readData, renderPng, root, tmp }
  from './helpers.mjs';

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

const checker = path.join(root, 'data', 'checker.cel');

test('data/checker.cel (Animator 1) decodes to the palette colours of its indices', () => {
  const got = kf3ds.decodeCel(readData(checker));
  const want = decodePicture(checker);
  assert.equal(got.width, want.width);
  assert.equal(got.height, want.height);
  assert.ok(got.data instanceof Uint8ClampedArray);
  assert.deepEqual(got.data, want.data);
  assert.ok(new Set(Array.from({ length: got.width * got.height },
    (_, i) => got.data.slice(4 * i, 4 * i + 3).join())).size > 1, 'more than one colour');
});

// An Animator Pro PIC, 3×2: the 64-byte header (u16 0x9500 at 4, width at 6,
// height at 8), a palette chunk (type 0: u16 version, RGB triples 0..255)
// and a byte-pixel chunk (type 1), each chunk u32 size then u16 type.
function proPic() {
  const palette = [[0, 0, 0], [255, 0, 0], [0, 200, 0], [10, 20, 250]];
  const indices = [1, 2, 3, 3, 0, 1];
  const chunk = (type, body) => {
    const b = Buffer.alloc(6 + body.length);
    b.writeUInt32LE(b.length, 0);
    b.writeUInt16LE(type, 4);
    Buffer.from(body).copy(b, 6);
    return b;
  };
  const head = Buffer.alloc(64);
  head.writeUInt16LE(0x9500, 4);
  head.writeUInt16LE(3, 6);
  head.writeUInt16LE(2, 8);
  head.writeUInt8(8, 18); // depth (not read)
  const file = Buffer.concat([head, chunk(0, [0, 0, ...palette.flat()]), chunk(1, indices)]);
  head.writeUInt32LE(file.length, 0);
  file.writeUInt32LE(file.length, 0);
  const rgba = indices.flatMap((i) => [...palette[i], 255]);
  return { bytes: new Uint8Array(file), rgba };
}

test('an Animator Pro PIC built here decodes to its palette colours', () => {
  const { bytes, rgba } = proPic();
  const got = kf3ds.decodeCel(bytes);
  assert.equal(got.width, 3);
  assert.equal(got.height, 2);
  assert.deepEqual(Array.from(got.data), rgba);
});

test('a damaged picture throws the decoder\'s reason and the byte at fault', () => {
  const { bytes } = proPic();
  const cut = bytes.slice(0, 64 + 20 + 6 + 3); // the pixel chunk (at 84) cut short
  const e = (() => { try { kf3ds.decodeCel(cut); } catch (x) { return x; } return null; })();
  assert.ok(e instanceof Error);
  assert.match(e.message, /^kf3ds: decodeCel: chunk size beyond the file \(at byte 84\)$/);
  assert.equal(e.offset, 84);
  // not an Animator picture at all
  assert.throws(() => kf3ds.decodeCel(new TextEncoder().encode('GIF89a not a cel')),
    (x) => /^kf3ds: decodeCel: /.test(x.message) && Number.isInteger(x.offset));
  assert.throws(() => kf3ds.decodeCel(new Uint8Array(0)), /^Error: kf3ds: decodeCel: /);
  // the module is still fine
  assert.equal(kf3ds.decodeCel(readData(checker)).width, decodePicture(checker).width);
});

test('textured.3ds with its CEL map from decodeCel equals kf3ds render with the map', () => {
  const file = dataFiles.find((f) => f.endsWith('textured.3ds'));
  // A copy beside data/checker.cel alone, so that the command finds only the CEL map.
  const dir = fs.mkdtempSync(path.join(tmp, 'cel-'));
  const copy = path.join(dir, 'textured.3ds');
  fs.copyFileSync(file, copy);
  fs.copyFileSync(checker, path.join(dir, 'checker.cel'));
  const scene = kf3ds.load(readData(copy));
  try {
    let given = 0;
    for (const m of scene.materials)
      for (const [kind, map] of Object.entries(m.maps))
        if (/\.cel$/i.test(map.file)) {
          assert.equal(scene.setMap(m.index, kind, kf3ds.decodeCel(readData(checker))), true);
          given++;
        }
    assert.ok(given > 0, 'textured.3ds has a CEL texture map');
    for (const frame of [0, 10]) {
      const png = renderPng(copy, '--frame', String(frame), '--size', '160x120');
      const d = firstDifference(scene.render({ width: 160, height: 120, frame }), png);
      assert.equal(d, null, `frame ${frame}: ${JSON.stringify(d)}`);
    }
  } finally {
    scene.free();
  }
});
