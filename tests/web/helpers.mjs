// Shared by tests/web/*.test.mjs (run by tests/web/run.sh, `make test-web`):
// the module under test, the kf3ds command whose answers are the reference,
// and a PNG reader (node:zlib) for its pictures.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const webDir = path.resolve(root, process.env.KF3DS_WEB_DIR || 'build/web');
export const tool = path.resolve(root, process.env.KF3DS_TOOL || 'build/kf3ds');
export const wasmPath = path.join(webDir, 'kf3ds.wasm');
export const dataFiles = fs.readdirSync(path.join(root, 'data'))
  .filter((f) => f.endsWith('.3ds')).sort().map((f) => path.join(root, 'data', f));

export async function loadModule() {
  return import(pathToFileURL(path.join(webDir, 'kf3ds.mjs')).href);
}

export function readData(file) {
  return new Uint8Array(fs.readFileSync(file));
}

export const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kf3ds-web-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

// Runs the command; its standard output (a Buffer). Warnings go to stderr.
export function kf3ds(...args) {
  return execFileSync(tool, args, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
}

// `kf3ds eval FILE --json --verts --frame F...` parsed.
export function evalJson(file, frames) {
  const args = ['eval', file, '--json', '--verts', '-q'];
  for (const f of frames)
    args.push('--frame', String(f));
  return JSON.parse(kf3ds(...args).toString('utf8'));
}

// `kf3ds render FILE ... -o x.png` decoded: { width, height, rgb }.
let pictures = 0;
export function renderPng(file, ...args) {
  const out = path.join(tmp, `r${pictures++}.png`);
  kf3ds('render', file, ...args, '-q', '-o', out);
  return decodePng(fs.readFileSync(out));
}

// An 8-bit RGB or RGBA, non-interlaced PNG (what cmd_png.c writes).
export function decodePng(buf) {
  if (buf.readUInt32BE(0) !== 0x89504E47)
    throw new Error('not a PNG');
  let at = 8, width = 0, height = 0, channels = 0;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at), type = buf.toString('latin1', at + 4, at + 8);
    const body = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || (body[9] !== 2 && body[9] !== 6) || body[12] !== 0)
        throw new Error('PNG: only 8-bit RGB(A), not interlaced');
      channels = body[9] === 2 ? 3 : 4;
    } else if (type === 'IDAT') {
      idat.push(body);
    }
    at += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels, out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels] : 0;
      const b = y ? out[(y - 1) * stride + x] : 0;
      const c = x >= channels && y ? out[(y - 1) * stride + x - channels] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 255;
    }
  }
  if (channels === 3)
    return { width, height, rgb: out };
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4)
    rgb.set(out.subarray(j, j + 3), i);
  return { width, height, rgb };
}

// The first pixel where RGBA from the module and RGB from the PNG differ, or null.
export function firstDifference(rgba, png) {
  for (let p = 0; p < png.width * png.height; p++)
    for (let c = 0; c < 3; c++)
      if (rgba[4 * p + c] !== png.rgb[3 * p + c] || rgba[4 * p + 3] !== 255)
        return { x: p % png.width, y: Math.floor(p / png.width),
          module: Array.from(rgba.subarray(4 * p, 4 * p + 4)),
          command: Array.from(png.rgb.subarray(3 * p, 3 * p + 3)) };
  return null;
}

// The pictures data/textured.3ds names, decoded as the command decodes them
// (SDL2_image for BMP, tools/cmd/cel_decode.c for Animator CEL), as ImageData-like
// {width, height, data: RGBA}. Only what data/ holds: 24-bit uncompressed
// BMP, 8-bit Animator 1 CEL.
export function decodePicture(file) {
  const b = fs.readFileSync(file);
  if (b.toString('latin1', 0, 2) === 'BM') {
    const at = b.readUInt32LE(10), width = b.readInt32LE(18), h = b.readInt32LE(22);
    if (b.readUInt16LE(28) !== 24 || b.readUInt32LE(30) !== 0)
      throw new Error(`${file}: only 24-bit uncompressed BMP`);
    const height = Math.abs(h), stride = (width * 3 + 3) & ~3;
    const data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) {
      const row = at + (h > 0 ? height - 1 - y : y) * stride;
      for (let x = 0; x < width; x++)
        data.set([b[row + 3 * x + 2], b[row + 3 * x + 1], b[row + 3 * x], 255],
          (y * width + x) * 4);
    }
    return { width, height, data };
  }
  if (b.readUInt16LE(0) === 0x9119) {
    const width = b.readUInt16LE(2), height = b.readUInt16LE(4);
    const data = new Uint8ClampedArray(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      const c = 32 + 3 * b[800 + i];
      data.set([0, 1, 2].map((k) => Math.floor((b[c + k] & 63) * 255 / 63)).concat(255), i * 4);
    }
    return { width, height, data };
  }
  throw new Error(`${file}: not a picture the tests decode`);
}
