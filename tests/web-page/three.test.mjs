// build/web/three.html (examples/web/three.html, `make web-three`) in headless
// Chromium, opened from disk: a sample goes in through the file input, kf3ds
// exports it as glTF in the page and three.js's GLTFLoader and AnimationMixer
// play it. At a few frames every kf3ds node's world position as three.js
// computes it must be kf3ds eval's (docs/gltf.md rule 1 maps the axes: 3DS's
// (x, y, z) is glTF's (x, z, −y)) within 1e-4 of the scene's size, the bound
// docs/gltf.md ("How it is checked") allows at whole frames; and playing, the
// clip's time advances and the nodes move. Sampled to keep CI short: the arm
// (hierarchy, hide and morph switches) and, when the corpus is there,
// sr-CITY.3DS (61 nodes, TCB and ease, 2150 frames), three frames each.
// Skipped, saying why, without three.html (no three in the npm folder).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { evalJson, root, tmp, webDir } from '../web/helpers.mjs';

const npmDir = path.resolve(root, process.env.KF3DS_NPM_DIR || 'build/npm');
const puppeteer = createRequire(path.join(npmDir, 'package.json'))('puppeteer-core');
const corpusDir = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
const pagePath = path.join(webDir, 'three.html');
const missing = fs.existsSync(pagePath) ? '' :
  `${pagePath} is missing (make web-three builds it; it needs three in ${npmDir})`;
const BOUND = 1e-4; // of the scene's size

const SAMPLES = [
  { file: path.join(root, 'data', 'arm.3ds'), frames: [0, 30, 47] },
  { file: path.join(corpusDir, 'sr-CITY.3DS'), frames: [0, 1000, 2150], corpus: true },
];

let browser, page, shown = 0;

before(async () => {
  if (missing)
    return;
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || 'chromium',
    headless: true, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
  page = await browser.newPage();
  page.on('pageerror', (e) => { throw e; });
  await page.goto(pathToFileURL(pagePath).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
});

after(async () => {
  await browser?.close();
});

async function give(paths) {
  const input = await page.$('#files');
  // the same file as last time is a change too (without the corpus, the arm
  // comes twice in a row)
  await input.evaluate((i) => { i.value = ''; });
  await input.uploadFile(...paths);
  shown++;
  await page.waitForFunction((n) => Number(document.body.dataset.shown) >= n,
    { timeout: 60000 }, shown);
}

const state = () => page.evaluate(() => window.kf3dsThree.state());
const nodes = () => page.evaluate(() => window.kf3dsThree.nodes());

// The largest side of the box of every placed vertex at these frames: the
// scene's size E of docs/gltf.md rule 32, from fewer frames (so a stricter E).
function extent(ref) {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const f of ref.frames)
    for (const n of f.nodes)
      for (const v of n.verts || [])
        for (let c = 0; c < 3; c++) {
          lo[c] = Math.min(lo[c], v[c]);
          hi[c] = Math.max(hi[c], v[c]);
        }
  return Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
}

for (const s of SAMPLES) {
  const name = path.basename(s.file);
  test(`three.html plays ${name}: node positions are kf3ds eval's at frames ${s.frames}`,
    async (t) => {
      if (missing)
        return t.skip(missing);
      if (!fs.existsSync(s.file))
        return t.skip(`${s.file} is absent (the corpus is optional)`);
      await give([s.file]);
      const st = await state();
      assert.equal(st.file, name, await page.$eval('#message', (m) => m.textContent));
      const ref = evalJson(s.file, s.frames);
      const segment = (await page.evaluate(() => [Number(document.getElementById('timeline').min),
        Number(document.getElementById('timeline').max)]));
      assert.equal(st.fps, 30);
      // the export's timeline is the file's segment (docs/gltf.md rule 25)
      assert.deepEqual(segment, [st.start, st.end]);
      if (!st.webgl)
        t.diagnostic('no WebGL in this Chromium: the mixer was checked, nothing drawn');
      const size = extent(ref);
      assert.ok(size > 0);
      for (const [k, frame] of s.frames.entries()) {
        await page.evaluate((f) => window.kf3dsThree.seek(f), frame);
        const got = await nodes();
        const want = ref.frames[k].nodes;
        assert.equal(got.length, want.length, 'one three.js node per kf3ds node');
        let worst = 0, where = '';
        for (const g of got) {
          const w = want[g.index].world; // row-major: the translation is 3, 7, 11
          const p = [w[3], w[11], -w[7]];
          const d = Math.hypot(g.position[0] - p[0], g.position[1] - p[1], g.position[2] - p[2]);
          if (d > worst) {
            worst = d;
            where = `${want[g.index].name}: three.js ${g.position}, kf3ds ${p}`;
          }
        }
        t.diagnostic(`frame ${frame}: largest distance ${worst.toExponential(2)}, ` +
          `${(worst / size).toExponential(2)} of the size ${size}`);
        assert.ok(worst <= BOUND * size,
          `frame ${frame}: off by ${worst} > ${BOUND} × ${size} (${where})`);
      }
    });
}

test('three.html: playing, the mixer\'s time advances and the nodes move', async (t) => {
  if (missing)
    return t.skip(missing);
  await give([path.join(root, 'data', 'arm.3ds')]);
  await page.evaluate(() => window.kf3dsThree.seek(10));
  const before = await nodes();
  const t0 = (await state()).time;
  await page.evaluate(() => window.kf3dsThree.play(true));
  // (a condition, not a duration: it waits until the page has played on)
  await page.waitForFunction((t) => window.kf3dsThree.state().time > t + 0.1,
    { timeout: 30000 }, t0);
  const after = await nodes();
  assert.equal((await state()).playing, true);
  const moved = after.filter((n, i) => Math.hypot(...n.position.map((x, c) =>
    x - before[i].position[c])) > 1e-3);
  assert.ok(moved.length > 0, 'some node moved');
  await page.click('#play'); // pauses
  assert.equal((await state()).playing, false);
});

test('three.html: a file that is not a 3DS file shows the loader\'s error', async (t) => {
  if (missing)
    return t.skip(missing);
  const dir = fs.mkdtempSync(path.join(tmp, 'three-'));
  const text = path.join(dir, 'notes.3ds');
  fs.writeFileSync(text, 'not chunks\n');
  await give([text]);
  const m = await page.$eval('#message', (e) => [e.className, e.textContent]);
  assert.equal(m[0], 'error');
  assert.match(m[1], /^kf3ds: notes\.3ds: /); // the load error as the module words it
  // the page still plays what it had
  assert.equal((await state()).file, 'arm.3ds');
});
