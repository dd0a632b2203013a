// bench_web.mjs BUILD NPM_DIR — `make bench-web` (docs/web.md, "Speed"):
// kf3ds in headless Chromium against the native build, side by side in one
// run, on data/arm.3ds and the corpus files sr-CITY.3DS and
// kjetilos-frigate.3ds (left out, saying so, when absent).
//
// Both sides run the same glue, web/kf3ds_wasm.c: natively in
// BUILD/bench-web-native (dev/bench/bench_web_native.c), in Chromium as
// kf3ds.wasm through kf3ds.mjs (scene.eval, scene.render at 640×480 into one
// reused array, the defaults of `kf3ds render`), at COUNT frames spread over the file's
// segment. Each frame is timed in samples of about 2 ms (k calls), the best
// sample over k counts (a contended machine interrupts short samples less
// often), and the mean over the frames is printed; Chromium first warms up
// (3 s of the same work: V8 tiers WebAssembly up while it runs). The native
// side first, then Chromium, for each file. Printed per frame: the
// evaluation alone and evaluation + rendering, and the ratios Chromium /
// native (issue 26 asks for at most 2 for evaluation + rendering). Then the
// time the page (build/web/index.html, from disk) takes from the file input's
// change to the first frame shown, for the 2.6 MB frigate, three times
// (issue 26: under a second).
//
// Informative only: no threshold fails it, and timings on a shared machine
// vary; the environment: KF3DS_CORPUS (the corpus, default ../shared/corpus),
// CHROMIUM (default chromium on PATH), BENCH_WEB_FRAMES (COUNT, default 10),
// BENCH_WEB_WARMUP_MS (Chromium's unmeasured warm-up per file, default 3000).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundle } from '../../tools/esm_bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(root, process.argv[2] || 'build');
const npmDir = path.resolve(root, process.argv[3] || 'build/npm');
const corpus = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
const COUNT = Number(process.env.BENCH_WEB_FRAMES) || 10;
const [WIDTH, HEIGHT] = [640, 480];
// as dev/bench/bench_web_native.c
const SAMPLE_MS = 2, MIN_SAMPLES = 5, MAX_SAMPLES = 40, FRAME_MS = 400;
const WARMUP_MS = Number(process.env.BENCH_WEB_WARMUP_MS) || 3000; // per file, in Chromium

function skip(why) {
  console.log(`bench-web: SKIPPED: ${why}`);
  process.exit(0);
}

let puppeteer;
try {
  puppeteer = createRequire(path.join(npmDir, 'package.json'))('puppeteer-core');
} catch {
  skip(`no puppeteer-core in ${npmDir} (make npm-tools installs it)`);
}
const chromium = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser']
  .find((f) => fs.existsSync(f));
if (!chromium)
  skip('no chromium (apt-get install chromium)');

const files = [path.join(root, 'data', 'arm.3ds')];
for (const f of ['sr-CITY.3DS', 'kjetilos-frigate.3ds']) {
  const p = path.join(corpus, f);
  if (fs.existsSync(p))
    files.push(p);
  else
    console.log(`bench-web: ${f} is not in ${corpus}: left out`);
}

const kf3ds = await import(pathToFileURL(path.join(build, 'web', 'kf3ds.mjs')).href);
await kf3ds.init();

const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
  protocolTimeout: 900000,
  args: ['--no-sandbox', '--disable-gpu',
    ...(process.env.BENCH_WEB_JS_FLAGS ? [`--js-flags=${process.env.BENCH_WEB_JS_FLAGS}`] : [])] });
try {
  const page = await browser.newPage();
  await page.goto('about:blank');
  // The module as the built page has it: kf3ds.mjs with kf3ds.wasm's bytes.
  const wasm = fs.readFileSync(path.join(build, 'web', 'kf3ds.wasm')).toString('base64');
  await page.addScriptTag({ type: 'module', content:
    bundle(path.join(build, 'web', 'kf3ds.mjs'), () => { throw new Error('no imports'); }) +
    `__kfmEntry.init(Uint8Array.from(atob("${wasm}"), (c) => c.charCodeAt(0)))` +
    '.then(() => { window.kf3ds = __kfmEntry; });\n' });
  await page.waitForFunction(() => window.kf3ds, { timeout: 60000 });

  const rows = [];
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const scene = kf3ds.load(new Uint8Array(bytes), { fileName: path.basename(file) });
    const { start, end } = scene.segment;
    const nodes = scene.nodes.length;
    scene.free();
    const native = JSON.parse(execFileSync(path.join(build, 'bench-web-native'),
      [file, String(start), String(end), String(COUNT), String(WIDTH), String(HEIGHT)])
      .toString());
    const web = await page.evaluate(async (b64, name, start, end, count, size, policy) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const scene = window.kf3ds.load(data, { fileName: name });
      const frames = Array.from({ length: count },
        (_, i) => (count === 1 ? start : start + ((end - start) * i) / (count - 1)));
      // into: one picture reused, as a playing page does (a new 1.2 MB array
      // per frame costs Chromium more than drawing it, docs/web.md "Speed")
      const into = new Uint8ClampedArray(size[0] * size[1] * 4);
      const once = (f, draw) => {
        scene.eval(f);
        if (draw)
          scene.render({ width: size[0], height: size[1], frame: f, into });
      };
      // As bench_web_native.c's frame_time: samples of k calls, the best.
      const frameTime = (f, draw) => {
        let k = 1, t0;
        for (;; k *= 2) { // doubled until k calls take policy.sample
          t0 = performance.now();
          for (let i = 0; i < k; i++)
            once(f, draw);
          if (performance.now() - t0 >= policy.sample || k >= 65536)
            break;
        }
        let low = Infinity, spent = 0;
        for (let n = 0; n < policy.min || (n < policy.max && spent < policy.frame); n++) {
          t0 = performance.now();
          for (let i = 0; i < k; i++)
            once(f, draw);
          const ms = performance.now() - t0;
          spent += ms;
          low = Math.min(low, ms);
        }
        return low / k;
      };
      const mean = (draw) => frames.reduce((sum, f) => sum + frameTime(f, draw), 0) / count;
      // Warm-up, unmeasured: V8 runs WebAssembly first with its baseline
      // compiler and swaps in optimised code for the hot functions later (sooner
      // on an idle machine); a playing page runs the optimised code.
      for (const t0 = performance.now(); performance.now() - t0 < policy.warmup;)
        for (const f of frames)
          once(f, true);
      const out = { eval_ms: mean(false), frame_ms: mean(true) };
      scene.free();
      return out;
    }, bytes.toString('base64'), path.basename(file), start, end, COUNT,
    [WIDTH, HEIGHT], { sample: SAMPLE_MS, min: MIN_SAMPLES, max: MAX_SAMPLES, frame: FRAME_MS,
      warmup: WARMUP_MS });
    rows.push({ name: path.basename(file), nodes, native, web });
  }

  const pad = (s, n) => String(s).padStart(n);
  console.log(`\nkf3ds in Chromium (${(await browser.version())}) against native, ` +
    `per frame, mean over ${COUNT} frames of the segment of each one's best time (load now: ` +
    `${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
  console.log(`${'file'.padEnd(22)} ${pad('nodes', 5)} | ${pad('eval native µs', 14)} ` +
    `${pad('chromium µs', 11)} ${pad('ratio', 6)} | ${pad(`eval+render ${WIDTH}x${HEIGHT} native ms`, 30)} ` +
    `${pad('chromium ms', 11)} ${pad('ratio', 6)}`);
  for (const r of rows)
    console.log(`${r.name.padEnd(22)} ${pad(r.nodes, 5)} | ${pad((r.native.eval_ms * 1e3).toFixed(2), 14)} ` +
      `${pad((r.web.eval_ms * 1e3).toFixed(2), 11)} ${pad((r.web.eval_ms / r.native.eval_ms).toFixed(2), 6)} | ` +
      `${pad(r.native.frame_ms.toFixed(3), 30)} ${pad(r.web.frame_ms.toFixed(3), 11)} ` +
      `${pad((r.web.frame_ms / r.native.frame_ms).toFixed(2), 6)}`);
  const worst = Math.max(...rows.map((r) => r.web.frame_ms / r.native.frame_ms));
  console.log(`eval+render: Chromium within ${worst.toFixed(2)}× of native ` +
    `(issue 26 target: 2×) — ${worst <= 2 ? 'met' : 'NOT met'}`);

  // The page: from the file input's change to the first frame on the canvas.
  const frigate = path.join(corpus, 'kjetilos-frigate.3ds');
  if (!fs.existsSync(frigate)) {
    console.log('page load: kjetilos-frigate.3ds is not in the corpus: left out');
  } else {
    const view = await browser.newPage();
    await view.goto(pathToFileURL(path.join(build, 'web', 'index.html')).href);
    await view.waitForSelector('body[data-ready="1"]', { timeout: 60000 });
    const times = [];
    for (let i = 1; i <= 3; i++) {
      await view.evaluate(() => {
        window.benchT = {};
        document.getElementById('files').value = ''; // the same file again is a change
        document.getElementById('files').addEventListener('change',
          () => { window.benchT.start = performance.now(); }, { once: true, capture: true });
        new MutationObserver((_, o) => {
          window.benchT.end = performance.now();
          o.disconnect();
        }).observe(document.body, { attributes: true, attributeFilter: ['data-shown'] });
      });
      await (await view.$('#files')).uploadFile(frigate);
      await view.waitForFunction((n) => Number(document.body.dataset.shown) >= n,
        { timeout: 60000 }, i);
      times.push(await view.evaluate(() => window.benchT.end - window.benchT.start));
    }
    const mb = (fs.statSync(frigate).size / 1048576).toFixed(1);
    // The first load is what a visitor sees: the module's code is not yet
    // optimised then. The target is judged on it.
    console.log(`page load: kjetilos-frigate.3ds (${mb} MB), file input to first frame: ` +
      `${times[0].toFixed(0)} ms the first time, then ` +
      `${times.slice(1).map((t) => `${t.toFixed(0)} ms`).join(', ')} (issue 26 target: under ` +
      `1000 ms) — ${times[0] < 1000 ? 'met' : 'NOT met'}`);
  }
} finally {
  await browser.close();
}
console.log('(informative only; other work on this machine makes these numbers vary)');
