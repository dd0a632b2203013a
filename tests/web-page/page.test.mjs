// The page build/web/index.html in headless Chromium, opened from disk
// (file://, the hardest case: no module scripts, no fetch): each sample in
// data/ and up to three corpus files go in through the file input with the
// maps beside them; at three frames the canvas holds the pixels `kf3ds
// render` writes for that frame and size; the downloaded .glb is `kf3ds
// export`'s; a damaged file shows the command's error, a file that is not a
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
const PICTURES = /\.(png|jpe?g|bmp|gif)$/i; // what a browser decodes (not CEL/PIC)

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
    });
}

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
