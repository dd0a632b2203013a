// The shared corpus of real files (KF3DS_CORPUS, default ../shared/corpus, as
// the C suites find it): each loads with the diagnostics of `kf3ds info`'s
// count, evaluates as `kf3ds eval --json --verts` bit for bit, renders as
// `kf3ds render --no-textures` pixel for pixel and saves as `kf3ds rewrite`.
// Without the corpus the test says so and is skipped.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { evalJson, firstDifference, kf3ds as runTool, loadModule, readData, renderPng, root,
  tmp } from './helpers.mjs';

const dir = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
const files = fs.existsSync(dir)
  ? fs.readdirSync(dir).filter((f) => /\.(3ds|prj|mli)$/i.test(f)).sort().map((f) => path.join(dir, f))
  : [];

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

// JSON prints NaN and infinities as null.
const f32 = (v) => (v === null ? null : Math.fround(v));
const same = (a, b) => (b === null ? !Number.isFinite(a) : Object.is(a, b));

test('the corpus', { skip: files.length ? false : `no corpus at ${dir} (set KF3DS_CORPUS)` },
  async (t) => {
    for (const file of files) {
      await t.test(path.basename(file), () => {
        const bytes = readData(file);
        let scene;
        try {
          scene = kf3ds.load(bytes);
        } catch (e) {
          // Nothing usable: the command refuses it too.
          assert.throws(() => runTool('info', file, '-q'));
          return;
        }
        try {
          const { start, end } = scene.segment;
          const frames = [start, (start + end) / 2 + 0.25, end];
          const json = evalJson(file, frames);
          for (const f of json.frames) {
            const world = scene.eval(f.frame);
            f.nodes.forEach((n, i) => {
              for (let k = 0; k < 16; k++)
                assert.ok(same(world[i * 16 + k], f32(n.world[k])),
                  `frame ${f.frame} node ${i} world[${k}]`);
              if (n.verts) {
                const v = scene.vertices(i, f.frame);
                n.verts.forEach((p, k) => {
                  for (let c = 0; c < 3; c++)
                    assert.ok(same(v[k * 3 + c], f32(p[c])), `frame ${f.frame} node ${i} vertex ${k}`);
                });
              }
            });
          }
          for (const frame of [start, (start + end) / 2 + 0.25]) {
            const png = renderPng(file, '--no-textures', '--size', '160x120', '--frame',
              String(frame));
            const d = firstDifference(scene.render({ width: 160, height: 120, frame }), png);
            assert.equal(d, null, `frame ${frame}: ${JSON.stringify(d)}`);
          }
          const out = path.join(tmp, 'corpus.3ds');
          try {
            runTool('rewrite', file, '-q', '-o', out);
            assert.deepEqual(scene.save(), new Uint8Array(fs.readFileSync(out)));
          } catch (e) {
            if (e.code === 'ERR_ASSERTION')
              throw e;
            assert.throws(() => scene.save()); // the writer refuses it too
          }
          fs.rmSync(out, { force: true });
        } finally {
          scene.free();
        }
      });
    }
  });
