// Runs the Khronos glTF validator (npm gltf-validator) on each file given and
// prints one line per file:
//   FILE errors N warnings N infos N [CODE@pointer ...]
// with the codes of its errors and warnings; exits 1 when any file has an
// error or a warning, 2 when the validator cannot be loaded or a file read.
//   node tests/gltf/validate.cjs FILE.glb|FILE.gltf ...
const fs = require('fs');
const path = require('path');
const npm = process.env.KF3DS_NPM || 'build/npm';
let validator;
try {
  validator = require(path.resolve(npm, 'node_modules', 'gltf-validator'));
} catch (e) {
  console.error(`validate: cannot load gltf-validator from ${npm}: ${e.message}`);
  process.exit(2);
}

async function one(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 1000,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        try {
          resolve(new Uint8Array(fs.readFileSync(path.resolve(dir, decodeURIComponent(uri)))));
        } catch (e) {
          reject(e.toString());
        }
      }),
  });
  const i = report.issues;
  const bad = i.messages.filter((m) => m.severity < 2).map((m) => `${m.code}@${m.pointer || ''}`);
  console.log(`${file} errors ${i.numErrors} warnings ${i.numWarnings} infos ${i.numInfos}` +
              (bad.length ? ' ' + bad.slice(0, 20).join(' ') : ''));
  return i.numErrors + i.numWarnings;
}

(async () => {
  let problems = 0;
  for (const f of process.argv.slice(2)) {
    try {
      problems += await one(f);
    } catch (e) {
      console.error(`validate: ${f}: ${e.message || e}`);
      process.exit(2);
    }
  }
  process.exit(problems ? 1 : 0);
})();
