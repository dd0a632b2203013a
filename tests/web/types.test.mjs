// web/kf3ds.d.ts declares what kf3ds.mjs has: every Scene method and every
// module export (no TypeScript compiler needed for this much).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadModule, webDir } from './helpers.mjs';

test('kf3ds.d.ts declares every method and export', async () => {
  const mod = await loadModule();
  const dts = fs.readFileSync(path.join(webDir, 'kf3ds.d.ts'), 'utf8');
  const methods = Object.getOwnPropertyNames(mod.Scene.prototype)
    .filter((m) => m !== 'constructor');
  assert.ok(methods.includes('exportGlb') && methods.includes('bake'));
  for (const m of methods)
    assert.match(dts, new RegExp(`\\b${m}\\??[(:]`), `Scene.${m} is declared`);
  for (const name of Object.keys(mod).filter((k) => k !== 'default'))
    assert.match(dts, new RegExp(`export (declare )?(function|class|const) ${name}\\b`),
      `${name} is declared`);
});
