// Counts the animation keys of kf3ds exports, for the resampling test.
//   node tests/gltf/anim_keys.mjs OUT.glb...
// Prints per file one line:
//   keys N bytes S over K FILE
// N the keys of every sampler together (its input accessor's count), S the
// file's size, K the asset's extras.kf3ds.channels_over_tolerance (-1 when
// absent: an export with --every-frame). Exit status 2 when a file is not
// a .glb.
import fs from 'node:fs';

for (const file of process.argv.slice(2)) {
  const b = fs.readFileSync(file);
  if (b.length < 20 || b.readUInt32LE(0) !== 0x46546c67) {
    console.error(`anim_keys: ${file}: not a .glb`);
    process.exit(2);
  }
  const json = JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString('utf8'));
  let keys = 0;
  for (const a of json.animations || [])
    for (const s of a.samplers) keys += json.accessors[s.input].count;
  const k = json.asset && json.asset.extras && json.asset.extras.kf3ds;
  const over = k && k.channels_over_tolerance !== undefined ? k.channels_over_tolerance : -1;
  console.log(`keys ${keys} bytes ${b.length} over ${over} ${file}`);
}
