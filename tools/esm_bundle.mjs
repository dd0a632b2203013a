// esm_bundle.mjs — joins ES modules into one module script that imports
// nothing, so that a page works opened from disk (file://), where browsers
// load no module script from another file (docs/web.md, "three.js").
//
// It is not a general bundler: it understands the statement forms that
// three.js's build and its examples/jsm files use, and web/kf3ds.mjs's —
//   import { a, b as c } from 'x';      import * as ns from 'x';
//   export { a, b as c } [from 'x'];    export function|class|const|let a
//   export default ...;  (one line, dropped: the named exports say the same)
// each at the start of a line. Every module becomes a function scope run
// once, in dependency order; its exports are an object that its importers
// destructure. Imports are therefore copies, not live bindings: fine for
// these modules, which never reassign an export. Anything else it does not
// understand (a default import, export *, a dynamic import of a bundled
// file) stops it with a message rather than bundling it wrongly.
import fs from 'node:fs';
import path from 'node:path';

const IMPORT_LIST = /^import\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2\s*;?/gm;
const IMPORT_NS = /^import\s*\*\s*as\s+([\w$]+)\s+from\s*(['"])([^'"]+)\2\s*;?/gm;
const EXPORT_LIST = /^export\s*\{([^}]*)\}(?:\s*from\s*(['"])([^'"]+)\2)?\s*;?/gm;
const EXPORT_DECL = /^export\s+((?:async\s+)?function\*?|class|const|let|var)\s+([\w$]+)/gm;
const EXPORT_DEFAULT = /^export\s+default\s.*$/gm;
const LEFT_OVER = /^\s*(import\s*[\w$'"{*]|export\s)/m;

function names(list) {
  return list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^([\w$]+)(?:\s+as\s+([\w$]+))?$/.exec(s);
    if (!m)
      throw new Error(`esm_bundle: cannot read the name list entry '${s}'`);
    return { name: m[1], as: m[2] || m[1] };
  });
}

// bundle(entry, resolve) → the script text; the entry module's exports end
// up in `const __kfmEntry`. resolve(specifier, fromFile) gives the file a
// specifier names.
export function bundle(entry, resolve) {
  const ids = new Map(); // file → its variable
  const parts = [];
  const visiting = new Set();

  function visit(file) {
    if (ids.has(file))
      return ids.get(file);
    if (visiting.has(file))
      throw new Error(`esm_bundle: ${file} is part of an import cycle`);
    visiting.add(file);
    let text = fs.readFileSync(file, 'utf8');
    const exported = []; // "key: expression"
    const dep = (spec) => visit(resolve(spec, file));
    text = text.replace(IMPORT_LIST, (_, list, _q, spec) =>
      `const { ${names(list).map((n) => (n.name === n.as ? n.name : `${n.name}: ${n.as}`)).join(', ')} } = ${dep(spec)};`);
    text = text.replace(IMPORT_NS, (_, ns, _q, spec) => `const ${ns} = ${dep(spec)};`);
    text = text.replace(EXPORT_LIST, (_, list, _q, spec) => {
      const from = spec ? dep(spec) : null;
      for (const n of names(list))
        exported.push(`${n.as}: ${from ? `${from}.${n.name}` : n.name}`);
      return '';
    });
    text = text.replace(EXPORT_DECL, (_, kind, name) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
    text = text.replace(EXPORT_DEFAULT, '');
    const left = LEFT_OVER.exec(text);
    if (left)
      throw new Error(`esm_bundle: ${file}: a statement it does not understand: ` +
        text.slice(left.index, left.index + 60).split('\n')[0]);
    visiting.delete(file);
    const id = `__kfm${ids.size}`;
    ids.set(file, id);
    parts.push(`// ---- ${path.basename(file)}\nconst ${id} = (() => {\n${text}\n` +
      `return { ${exported.join(', ')} };\n})();\n`);
    return id;
  }

  const id = visit(entry);
  return `${parts.join('\n')}const __kfmEntry = ${id};\n`;
}
