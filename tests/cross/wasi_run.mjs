#!/usr/bin/env node
// tests/cross/wasi_run.mjs PROGRAM.wasm [ARGS...]
//
// The emulator of `make test-cross TARGET=wasm32-wasi` (mk/cross.mk): runs a
// wasm32-wasi program with Node's WASI (Node 20) as qemu-user runs the other
// targets' binaries, so that tests/cross/run.sh compares it with the native
// build unchanged. Arguments, standard streams and the exit status pass
// through; the whole file system is visible under the same paths. wasi-libc
// resolves relative paths against its own working directory, which starts
// at "/": the program's tests/cross/wasi_cwd.c moves to KF3DS_WASI_CWD, the
// host's working directory, before main.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

// Node marks WASI experimental and says so on stderr, which the comparison
// with the native build's stderr would count as a difference.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
  if (type === 'ExperimentalWarning' && /WASI/.test(String(warning))) return;
  emitWarning.call(process, warning, ...rest);
};
const { WASI } = await import('node:wasi');

const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('usage: wasi_run.mjs PROGRAM.wasm [ARGS...]\n');
  process.exit(2);
}
let bytes;
try {
  bytes = await readFile(program);
} catch (e) {
  process.stderr.write(`wasi_run.mjs: ${program}: ${e.message}\n`);
  process.exit(126);
}
// The same argv[0] as the native build sees, for messages that name it.
const wasi = new WASI({
  version: 'preview1',
  args: [basename(program).replace(/\.wasm$/, ''), ...args],
  env: { KF3DS_WASI_CWD: process.cwd() },
  preopens: { '/': '/' },
  returnOnExit: true,
});
const module = await WebAssembly.compile(bytes);
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
