// scene.exportGlb and scene.bake give the bytes `kf3ds export` and `kf3ds
// bake` write for the same options: every sample in data/ with a set of
// option lists, and the shared corpus (KF3DS_CORPUS, default
// ../shared/corpus) with the defaults when it is there. The texture files are
// those beside each input, handed over as bytes keyed by file name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { dataFiles, kf3ds as runTool, loadModule, readData, root, tmp } from './helpers.mjs';

const corpusDir = path.resolve(root, process.env.KF3DS_CORPUS || '../shared/corpus');
const corpus = fs.existsSync(corpusDir)
  ? fs.readdirSync(corpusDir).filter((f) => /\.3ds$/i.test(f)).sort()
    .map((f) => path.join(corpusDir, f))
  : [];

let kf3ds;
before(async () => {
  kf3ds = await loadModule();
  await kf3ds.init();
});

// Every picture file in the input's folder, as the page would be given them.
const imageCache = new Map();
function imagesBeside(file) {
  const dir = path.dirname(file);
  if (!imageCache.has(dir)) {
    const images = {};
    for (const f of fs.readdirSync(dir))
      if (/\.(png|jpe?g|bmp|gif|cel|pic|tga)$/i.test(f))
        images[f] = fs.readFileSync(path.join(dir, f));
    imageCache.set(dir, images);
  }
  return imageCache.get(dir);
}

// file linked into a folder of its own beside only the PNG and JPEG files of
// its folder: the command re-encodes other maps (BMP, CEL...) as PNG with its
// image libraries, which the module does not have (it leaves them out,
// docs/web.md), so exports are compared where both find the same maps.
const copies = new Map();
function embeddableCopy(file) {
  if (!copies.has(file)) {
    const dir = fs.mkdtempSync(path.join(tmp, 'in-'));
    const src = path.dirname(path.resolve(file));
    for (const f of fs.readdirSync(src))
      if (/\.(png|jpe?g)$/i.test(f))
        fs.symlinkSync(path.join(src, f), path.join(dir, f));
    const copy = path.join(dir, path.basename(file));
    fs.symlinkSync(path.resolve(file), copy);
    copies.set(file, copy);
  }
  return copies.get(file);
}

// The command's output file, or null when it refused (status not 0).
function commandBytes(verb, file, out, args) {
  fs.rmSync(out, { force: true });
  try {
    runTool(verb, file, ...args, '-q', '-o', out);
  } catch (e) {
    return null;
  }
  const bytes = new Uint8Array(fs.readFileSync(out));
  fs.rmSync(out, { force: true });
  return bytes;
}

// [command options, exportGlb options]; maps embedded, so that the bytes do
// not depend on where the .glb is written (the URIs are tested below).
const EXPORTS = [
  [[], {}],
  [['--no-animation'], { animation: false }],
  [['--static-frame', '7.5'], { staticFrame: 7.5 }],
  [['--frames', '2:9', '--fps', '24', '--rate', '2'], { frames: [2, 9], fps: 24, rate: 2 }],
  [['--cubic', '--visibility-ext', '--no-ease'], { cubic: true, visibilityExt: true,
    noEase: true }],
  [['--linear'], { linear: true }],
];
const BAKES = [
  [[], {}],
  [['--fixed'], { fixed: true }],
  [['--frac-bits', 'auto', '--no-meshes'], { fracBits: 'auto', noMeshes: true }],
  [['--frac-bits', '10'], { fracBits: 10 }],
  [['--frames', '1.5:6', '--step', '0.25'], { frames: ['1.5', 6], step: 0.25 }],
  [['--tolerance', '1e-3'], { tolerance: 1e-3 }],
];

function checkExport(t, scene, file, cmdArgs, opts) {
  const want = commandBytes('export', embeddableCopy(file), path.join(tmp, 'x.glb'),
    ['--embed-images', ...cmdArgs]);
  const o = { ...opts, embedImages: true, images: imagesBeside(file) };
  if (!want) {
    assert.throws(() => scene.exportGlb(o), /kf3ds: exportGlb/, 'the command refused');
    return;
  }
  assert.deepEqual(scene.exportGlb(o), want, `export ${cmdArgs.join(' ')}`);
}

function checkBake(scene, file, cmdArgs, opts) {
  const want = commandBytes('bake', file, path.join(tmp, 'x.kfb'), cmdArgs);
  if (!want) {
    assert.throws(() => scene.bake(opts), /kf3ds: bake/, `the command refused bake ${cmdArgs}`);
    return;
  }
  assert.deepEqual(scene.bake(opts), want, `bake ${cmdArgs.join(' ')}`);
}

for (const file of dataFiles) {
  test(`${path.basename(file)}: exportGlb and bake give the command's bytes`, (t) => {
    const scene = kf3ds.load(readData(file), { fileName: file });
    try {
      for (const [args, opts] of EXPORTS)
        checkExport(t, scene, file, args, opts);
      for (const [args, opts] of BAKES)
        checkBake(scene, file, args, opts);
    } finally {
      scene.free();
    }
  });
}

test('without embedImages a map is referred to by its file name, as beside the .glb', () => {
  // A copy of a textured corpus file or, without the corpus, a sample whose
  // map is a PNG made here; the command writes its .glb beside the input.
  const dir = fs.mkdtempSync(path.join(tmp, 'beside-'));
  const src = path.join(root, 'data', 'textured.3ds');
  const file = path.join(dir, 'textured.3ds');
  fs.copyFileSync(src, file);
  // A 1x1 PNG named as the sample's brick map (the command finds it in any case).
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de' +
    '0000000c49444154789c63f8cfc000000301010018dd8db00000000049454e44ae426082', 'hex');
  fs.writeFileSync(path.join(dir, 'BRICK.BMP'), png);
  const out = path.join(dir, 'textured.glb');
  runTool('export', file, '-q', '-o', out);
  const want = new Uint8Array(fs.readFileSync(out));
  const scene = kf3ds.load(readData(file), { fileName: 'textured.3ds' });
  const warnings = [];
  const got = scene.exportGlb({ images: { 'BRICK.BMP': png },
    onWarning: (m, w) => warnings.push([m, w.kind, w.map]) });
  scene.free();
  assert.deepEqual(got, want);
  assert.ok(Buffer.from(got).includes('"uri":"BRICK.BMP"'), 'the map by the given name');
  assert.deepEqual(warnings, [["textured.3ds: texture map 'CHECKER.CEL' not found beside " +
    'the file; left out', 'missing', 'CHECKER.CEL']]);
});

test('the warnings name each map left out, as the command does', () => {
  const file = path.join(root, 'data', 'textured.3ds');
  const scene = kf3ds.load(readData(file), { fileName: 'textured.3ds' });
  const warnings = [];
  scene.exportGlb({ images: { 'brick.bmp': fs.readFileSync(path.join(root, 'data', 'brick.bmp')) },
    onWarning: (m) => warnings.push(m) });
  assert.deepEqual(warnings, [
    "textured.3ds: texture map 'brick.bmp' is neither PNG nor JPEG, which glTF requires; left out",
    "textured.3ds: texture map 'CHECKER.CEL' not found beside the file; left out"]);
  // A Map works as well as an object; no onWarning: no warnings, same bytes.
  assert.deepEqual(scene.exportGlb({ images: new Map([['brick.bmp', new Uint8Array(4)]]) }),
    scene.exportGlb());
  scene.free();
});

test('the corpus: exportGlb and bake give the command\'s bytes',
  { skip: corpus.length ? false : `no corpus at ${corpusDir} (set KF3DS_CORPUS)` }, async (t) => {
    for (const file of corpus) {
      await t.test(path.basename(file), () => {
        let scene;
        try {
          scene = kf3ds.load(readData(file), { fileName: file });
        } catch (e) {
          assert.equal(commandBytes('export', file, path.join(tmp, 'c.glb'), []), null);
          return;
        }
        try {
          checkExport(t, scene, file, [], {});
          checkBake(scene, file, [], {});
        } finally {
          scene.free();
        }
      });
    }
  });
