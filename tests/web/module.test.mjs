// The module itself: no imports, instantiable with an empty import object,
// and init() from bytes, a compiled module or the default URL.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { loadModule, wasmPath, kf3ds as run } from './helpers.mjs';

test('kf3ds.wasm imports nothing and instantiates with {}', async () => {
  const bytes = fs.readFileSync(wasmPath);
  const module = new WebAssembly.Module(bytes);
  assert.deepEqual(WebAssembly.Module.imports(module), []);
  const { instance } = await WebAssembly.instantiate(bytes, {});
  assert.ok(instance.exports.memory instanceof WebAssembly.Memory);
  assert.equal(typeof instance.exports.kfw_load, 'function');
});

test('kf3ds.wasm is within its size budget (150 KB after gzip -9 is checked by make)', () => {
  assert.ok(fs.statSync(wasmPath).size < 1024 * 1024);
});

test('using the module before init() throws', async () => {
  const kf3ds = await loadModule();
  assert.throws(() => kf3ds.load(new Uint8Array(16)), /init\(\)/);
  assert.throws(() => kf3ds.version(), /init\(\)/);
});

test('init() takes bytes, a WebAssembly.Module, a URL or nothing', async () => {
  const kf3ds = await loadModule();
  const version = run('--version').toString().match(/\d+\.\d+\.\d+/)[0];
  await kf3ds.init(fs.readFileSync(wasmPath));
  assert.equal(kf3ds.version(), version);
  await kf3ds.init(new WebAssembly.Module(fs.readFileSync(wasmPath)));
  assert.equal(kf3ds.version(), version);
  await kf3ds.init(new URL(`file://${wasmPath}`));
  assert.equal(kf3ds.version(), version);
  await kf3ds.init();
  assert.equal(kf3ds.version(), version);
  await assert.rejects(kf3ds.init(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])),
    /not kf3ds.wasm/);
  await assert.rejects(kf3ds.init(42), TypeError);
});

test('a scene of an instance init() replaced can no longer be used', async () => {
  const kf3ds = await loadModule();
  await kf3ds.init();
  const scene = kf3ds.load(fs.readFileSync(new URL('../../data/arm.3ds', import.meta.url)));
  await kf3ds.init();
  assert.throws(() => scene.eval(0), /init\(\) replaced/);
  assert.equal(scene.freed, true);
  scene.free(); // nothing to do
});
