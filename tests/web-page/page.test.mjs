// The page build/web/index.html in headless Chromium, opened from disk
// (file://, the hardest case: no module scripts, no fetch): each sample in
// data/ and up to three corpus files go in through the file input with the
// maps beside them; at three frames the canvas holds the pixels `kf3ds
// render` writes for that frame and size (Animator CEL maps decoded by the
// module's decoder included); the downloaded .glb is `kf3ds export`'s and
// passes the Khronos validator; the keys of `kf3ds view` act; a damaged file shows the command's error, a file that is not a
// 3DS file and one over 100 MB are refused with a message. Run by
// tests/web-page/run.sh, which skips without chromium or puppeteer-core.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { dataFiles, decodePng, root, tmp, tool, webDir } from '../web/helpers.mjs';

const npmDir = path.resolve(root, process.env.KF3DS_NPM_DIR || 'build/npm');
const puppeteer = createRequire(path.join(npmDir, 'package.json'))('puppeteer-core');
const corpusDir = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
// Up to three corpus files with animation and maps the browser decodes.
const CORPUS = ['kjetilos-frigate.3ds', 'assimp-cube_with_diffuse_texture.3DS', 'sr-CITY.3DS']
  .map((f) => path.join(corpusDir, f)).filter((f) => fs.existsSync(f));
const SIZE = [320, 240];
// What the page decodes: the browser PNG, JPEG, BMP, GIF; kf3ds.decodeCel
// Animator CEL/PIC (data/textured.3ds has one).
const PICTURES = /\.(png|jpe?g|bmp|gif|cel|pic)$/i;
const glbs = []; // the downloaded .glb files, for the validator below

let browser, page, downloads, shown = 0;

before(async () => {
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || 'chromium',
    headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage();
  page.on('pageerror', (e) => { throw e; });
  downloads = fs.mkdtempSync(path.join(tmp, 'downloads-'));
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.goto(pathToFileURL(path.join(webDir, 'index.html')).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
});

after(async () => {
  await browser?.close();
});

// A folder with the input and the maps beside it that a browser can decode:
// the command, run there, finds what the page is given and no more.
function stage(file) {
  const dir = fs.mkdtempSync(path.join(tmp, 'in-'));
  const copy = path.join(dir, path.basename(file));
  fs.copyFileSync(file, copy);
  for (const f of fs.readdirSync(path.dirname(file)))
    if (PICTURES.test(f))
      fs.copyFileSync(path.join(path.dirname(file), f), path.join(dir, f));
  return { dir, file: copy, all: fs.readdirSync(dir).map((f) => path.join(dir, f)) };
}

function run(dir, ...args) {
  const env = { ...process.env };
  delete env.KF3DS_MAPS;
  return execFileSync(tool, args, { cwd: dir, env, maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'] });
}

// Gives the page files through its file input; waits until it shows them.
async function give(paths) {
  const input = await page.$('#files');
  await input.uploadFile(...paths);
  shown++;
  await page.waitForFunction((n) => Number(document.body.dataset.shown) >= n,
    { timeout: 60000 }, shown);
}

async function showFrame(frame) {
  await page.$eval('#frame', (el, f) => {
    el.value = String(f);
    el.dispatchEvent(new Event('change'));
  }, frame);
}

async function canvasPixels() {
  const b64 = await page.$eval('#view', (c) => {
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < d.length; i += 0x8000)
      s += String.fromCharCode(...d.subarray(i, i + 0x8000));
    return btoa(s);
  });
  return new Uint8Array(Buffer.from(b64, 'base64'));
}

function firstDifference(rgba, png) {
  for (let p = 0; p < png.width * png.height; p++)
    for (let c = 0; c < 3; c++)
      if (rgba[4 * p + c] !== png.rgb[3 * p + c] || rgba[4 * p + 3] !== 255)
        return { x: p % png.width, y: Math.floor(p / png.width),
          page: Array.from(rgba.subarray(4 * p, 4 * p + 4)),
          command: Array.from(png.rgb.subarray(3 * p, 3 * p + 3)) };
  return null;
}

async function download(what, name) {
  const target = path.join(downloads, name);
  fs.rmSync(target, { force: true });
  await page.click(`#downloads [data-get="${what}"]`);
  for (let i = 0; i < 600 && !fs.existsSync(target); i++)
    await new Promise((ok) => setTimeout(ok, 50));
  assert.ok(fs.existsSync(target), `${name} was downloaded`);
  return new Uint8Array(fs.readFileSync(target));
}

for (const source of [...dataFiles, ...CORPUS]) {
  test(`${path.basename(source)}: the canvas is kf3ds render's, the .glb kf3ds export's`,
    async () => {
      const { dir, file, all } = stage(source);
      await page.select('#size', `${SIZE[0]}x${SIZE[1]}`);
      await give(all);
      const segment = JSON.parse(await page.$eval('#timeline',
        (t) => JSON.stringify([Number(t.min), Number(t.max)])));
      const [start, end] = segment;
      if (dataFiles.includes(source)) { // data/ has every map its files name
        const maps = await page.$$eval('#maps li', (li) => li.map((x) => [x.className,
          x.textContent]));
        assert.deepEqual(maps.filter(([c]) => c === 'missing'), [], 'every map was decoded');
      }
      for (const frame of [start, Math.round((start + end) / 2), end]) {
        await showFrame(frame);
        const out = path.join(dir, `f${frame}.png`);
        run(dir, 'render', path.basename(file), '--frame', String(frame), '--size',
          `${SIZE[0]}x${SIZE[1]}`, '-q', '-o', out);
        const d = firstDifference(await canvasPixels(), decodePng(fs.readFileSync(out)));
        assert.equal(d, null, `frame ${frame}: ${JSON.stringify(d)}`);
      }
      const stem = path.basename(file).replace(/\.[^.]*$/, '');
      const glb = await download('glb', `${stem}.glb`);
      // The command re-encodes maps glTF cannot hold (BMP, GIF...) as PNG with
      // its image libraries; the module leaves them out (docs/web.md). Compare
      // with the command where it finds the PNG and JPEG maps only.
      for (const f of fs.readdirSync(dir))
        if (PICTURES.test(f) && !/\.(png|jpe?g)$/i.test(f))
          fs.rmSync(path.join(dir, f));
      run(dir, 'export', path.basename(file), '--embed-images', '-q', '-o', 'ref.glb');
      assert.deepEqual(glb, new Uint8Array(fs.readFileSync(path.join(dir, 'ref.glb'))));
      const kept = path.join(dir, `${stem}.glb`);
      fs.writeFileSync(kept, glb);
      glbs.push(kept);
    });
}

// The .glb files the page gave, through the Khronos validator (npm
// gltf-validator beside puppeteer-core; tests/gltf/validate.cjs): no errors,
// no warnings. One node process for all of them.
test('the downloaded .glb files pass the Khronos glTF validator', (t) => {
  if (!fs.existsSync(path.join(npmDir, 'node_modules', 'gltf-validator')))
    return t.skip(`no gltf-validator in ${npmDir} (make npm-tools installs it)`);
  assert.ok(glbs.length >= dataFiles.length, 'the .glb of every sample was downloaded');
  let text, status = 0;
  try {
    text = execFileSync(process.execPath, [path.join(root, 'tests/gltf/validate.cjs'), ...glbs],
      { env: { ...process.env, KF3DS_NPM: npmDir }, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString();
  } catch (e) {
    status = e.status;
    text = `${e.stdout}${e.stderr}`;
  }
  assert.equal(status, 0, text);
  const lines = text.trim().split('\n');
  assert.equal(lines.length, glbs.length, text);
  for (const line of lines)
    assert.match(line, / errors 0 warnings 0 /, line);
});

// The keys of `kf3ds view` (docs/viewer.md, "Keys") on data/arm.3ds, each
// pressed and its effect checked: where `kf3ds render` has the same option
// the canvas is its picture, pixel for pixel; m (motion paths) and t
// (following the objects) have none, so their pictures are checked for what
// they must be and for going back when pressed again.
test('the keys of kf3ds view act as they do there', async () => {
  const { dir, all } = stage(path.join(root, 'data', 'arm.3ds'));
  await page.select('#size', `${SIZE[0]}x${SIZE[1]}`);
  await give(all);
  await showFrame(20);
  await page.evaluate(() => document.activeElement?.blur());
  const key = (k) => page.keyboard.press(k);
  const status = () => page.$eval('#status', (s) => s.textContent);
  const frame = () => page.$eval('#view', (c) => Number(c.dataset.frame));
  const isRender = async (what, ...args) => {
    const out = path.join(dir, `k${Math.random().toString(36).slice(2)}.png`);
    run(dir, 'render', 'arm.3ds', '--frame', String(await frame()), '--size',
      `${SIZE[0]}x${SIZE[1]}`, '-q', '-o', out, ...args);
    const d = firstDifference(await canvasPixels(), decodePng(fs.readFileSync(out)));
    assert.equal(d, null, `${what}: ${JSON.stringify(d)}`);
  };
  await isRender('frame 20');
  const base = await canvasPixels();

  // space: play / pause
  assert.match(await status(), /paused/);
  await key(' ');
  assert.doesNotMatch(await status(), /paused/);
  await key(' ');
  assert.match(await status(), /paused/);
  // arrows one whole frame, pausing, past the ends to the other; home, end
  await showFrame(20);
  await key('ArrowRight');
  assert.equal(await frame(), 21);
  await key('ArrowLeft');
  await key('ArrowLeft');
  assert.equal(await frame(), 19);
  await key('End');
  assert.equal(await frame(), 60);
  await key('ArrowRight');
  assert.equal(await frame(), 0);
  await key('ArrowLeft');
  assert.equal(await frame(), 60);
  await key('Home');
  assert.equal(await frame(), 0);
  await isRender('home');
  await showFrame(20);
  await page.evaluate(() => document.activeElement?.blur());
  // [ and ]: half and double speed
  await key(']');
  assert.match(await status(), /, 2x, /);
  await key('[');
  await key('[');
  assert.match(await status(), /, 1\/2x, /);
  await key(']');
  assert.match(await status(), /, 1x, /);
  // w: smooth, wire, flat, smooth
  await key('w');
  await isRender('w once', '--shading', 'wire');
  await key('w');
  await isRender('w twice', '--shading', 'flat');
  await key('w');
  await isRender('w three times');
  // the overlays and back faces, on and off again
  for (const [k, ...args] of [['h', '--hierarchy'], ['n', '--names'], ['g', '--grid'],
    ['p', '--pivots'], ['l', '--lights', '--cameras'], ['b', '--cull']]) {
    await key(k);
    await isRender(k, ...args);
    await key(k);
    await isRender(`${k} again`);
  }
  // c: the orbit view, then every camera, then the orbit view again
  await key('c');
  assert.match(await status(), /, orbit, /);
  await isRender('c once', '--orbit', '35,25');
  await key('c');
  assert.match(await status(), /, Cam01, /);
  await isRender('c twice', '--camera', 'Cam01');
  await key('c');
  assert.match(await status(), /, orbit, /);
  // f: back to the orbit view, framed (after a wheel zoom)
  await page.mouse.move(100, 100);
  await page.$eval('#view', (c) => c.dispatchEvent(new WheelEvent('wheel', { deltaY: -100,
    bubbles: true, cancelable: true })));
  await key('f');
  await isRender('f', '--orbit', '35,25');
  const orbit = await canvasPixels();
  // m: the motion paths over the picture, in their colours only; m again: gone
  await key('m');
  const withPaths = await canvasPixels();
  const colours = new Set(['240,208,64', '80,208,240', '240,144,64']);
  let changed = 0;
  for (let p = 0; p < SIZE[0] * SIZE[1]; p++) {
    const a = orbit.subarray(4 * p, 4 * p + 3).join(), b = withPaths.subarray(4 * p, 4 * p + 3).join();
    if (a !== b) {
      changed++;
      assert.ok(colours.has(b), `pixel ${p}: ${b} is a path colour`);
    }
  }
  assert.ok(changed > 20, `the paths cover ${changed} pixels`);
  await key('m');
  assert.deepEqual(await canvasPixels(), orbit);
  // t: the orbit view following the objects (a box of their size now, around
  // them as they move); t again: the whole animation, as f frames it
  await key('t');
  assert.match(await status(), /, follow, /);
  const following = await canvasPixels();
  assert.notDeepEqual(following, orbit);
  await key('ArrowRight');
  assert.match(await status(), /, follow, /);
  await key('ArrowLeft');
  assert.deepEqual(await canvasPixels(), following);
  await key('t');
  assert.match(await status(), /, orbit, /);
  await isRender('t twice', '--orbit', '35,25');
  // ? and F1 show the help, esc hides it
  const help = () => page.$eval('#help', (h) => !h.hidden);
  await key('?');
  assert.equal(await help(), true);
  await key('Escape');
  assert.equal(await help(), false);
  await key('F1');
  assert.equal(await help(), true);
  await key('F1');
  assert.equal(await help(), false);
  assert.ok(base.length > 0);
});

test('a damaged file shows the command\'s error and what could be read', async () => {
  const arm = fs.readFileSync(path.join(root, 'data', 'arm.3ds'));
  const dir = fs.mkdtempSync(path.join(tmp, 'cut-'));
  const cut = path.join(dir, 'cut.3ds');
  fs.writeFileSync(cut, arm.subarray(0, Math.floor(arm.length * 0.6)));
  await give([cut]);
  let stderr = '';
  try {
    run(dir, 'info', 'cut.3ds');
  } catch (e) {
    stderr = e.stderr.toString();
  }
  const want = stderr.split('\n').find((l) => l.includes('truncated:'));
  assert.ok(want, 'the command reports the cut');
  const lines = await page.$$eval('#diags li', (li) => li.map((x) => x.textContent));
  assert.ok(lines.includes(want), `${JSON.stringify(lines)} holds ${want}`);
  assert.match(await page.$eval('#message', (m) => m.className + ' ' + m.textContent),
    /^error cut\.3ds is damaged: truncated/);
  // what could be read: its node tree
  assert.ok(await page.$eval('#tree', (t) => t.querySelectorAll('details').length) > 0);
});

test('a file that is not a 3DS file is refused with the loader\'s error', async () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'text-'));
  const text = path.join(dir, 'notes.3ds');
  fs.writeFileSync(text, 'these are not the chunks you are looking for\n');
  await give([text]);
  const message = await page.$eval('#message', (m) => [m.className, m.textContent]);
  assert.equal(message[0], 'error');
  assert.match(message[1], /^notes\.3ds: /);
  const lines = await page.$$eval('#diags li.error', (li) => li.map((x) => x.textContent));
  assert.match(lines[0], /^kf3ds: notes\.3ds: /);
  assert.equal(await page.$eval('#downloads [data-get="glb"]', (b) => b.disabled), true);
});

test('a file over 100 MB is refused before it is read', async () => {
  const dir = fs.mkdtempSync(path.join(tmp, 'big-'));
  const big = path.join(dir, 'big.3ds');
  fs.writeFileSync(big, '');
  fs.truncateSync(big, 101 * 1024 * 1024); // (sparse: no disk is used)
  await give([big]);
  assert.match(await page.$eval('#message', (m) => m.textContent),
    /^big\.3ds is 101\.0 MB: files over 100 MB are refused here/);
  fs.rmSync(big);
});
