// web_page.mjs [OUT.png] — the README's picture of the page (docs/web.md, "The
// page"): build/web/index.html opened from disk in headless Chromium, a corpus
// file given through its file input with the maps beside it, stopped at a
// frame of its animation, the page photographed. Needs `make web`, Debian's
// chromium, puppeteer-core (make npm-tools; NPM_DIR, default build/npm) and
// the corpus (KF3DS_CORPUS, default ../shared/corpus); without one of them it
// says so and exits 77. Default OUT: docs/img/web-page.png.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] || path.join(root, 'docs', 'img', 'web-page.png'));
const corpus = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
const npmDir = path.resolve(root, process.env.NPM_DIR || 'build/npm');
const FILE = 'blitz3d-mak_robotic.3DS', FRAME = 120; // a robot mid-stride, with its maps
const pageFile = path.join(root, 'build', 'web', 'index.html');

function skip(why) {
  console.log(`web_page.mjs: SKIPPED: ${why}`);
  process.exit(77);
}
if (!fs.existsSync(pageFile))
  skip(`${pageFile} is missing (make web)`);
if (!fs.existsSync(path.join(corpus, FILE)))
  skip(`${FILE} is not in ${corpus}`);
let puppeteer;
try {
  puppeteer = createRequire(path.join(npmDir, 'package.json'))('puppeteer-core');
} catch {
  skip(`no puppeteer-core in ${npmDir} (make npm-tools)`);
}
const chromium = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser']
  .find((f) => fs.existsSync(f));
if (!chromium)
  skip('no chromium (apt-get install chromium)');

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 640 });
  await page.goto(pathToFileURL(pageFile).href);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
  await page.select('#size', '640x480');
  // the file and the pictures beside it that a browser decodes
  const files = [path.join(corpus, FILE), ...fs.readdirSync(corpus)
    .filter((f) => /\.(png|jpe?g|bmp|gif)$/i.test(f)).map((f) => path.join(corpus, f))];
  await (await page.$('#files')).uploadFile(...files);
  await page.waitForFunction(() => Number(document.body.dataset.shown) >= 1, { timeout: 60000 });
  // stopped at FRAME (playing would move on between the step and the picture)
  if (await page.$eval('#play', (b) => b.textContent === 'pause'))
    await page.click('#play');
  await page.$eval('#frame', (el, f) => {
    el.value = String(f);
    el.dispatchEvent(new Event('change'));
  }, FRAME);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  console.log(`${out}: ${fs.statSync(out).size} bytes`);
} finally {
  await browser.close();
}
