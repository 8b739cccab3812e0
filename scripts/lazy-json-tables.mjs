// A build step for the CLI bundle (scripts/bundle.mjs): refa, the regex analysis of lint's address
// rules, parses about 400 Unicode tables (JSON.parse of ~0.9 MB of string literals) when it is
// evaluated: 8 of its 10 ms in every lint whose files hold an address pattern, although a pattern
// reads a few of them at most, and most none. Each table whose only uses are entries of the
// module-namespace objects rollup builds (`Object.freeze({__proto__:null, Name: table, ...})`) is
// parsed instead on first access of its entry, and kept. Any other use of the name, anywhere in the
// file, keeps that table parsed up front: a name the count cannot vouch for is left alone.
// With `sideFile`, the deferred tables' texts leave the source for a file of that name beside the bundle
// (returned as `tables`, for the caller to write), read on the first access of any of them: as string
// literals they were 0.66 MB of the 2.8 MB every lint reads, copies into a string and keeps, and, as
// constants of refa's top level, which runs, 0.66 MB of its V8 code cache, deserialised at every start.

import { runInNewContext } from 'node:vm';

const DEF = /([,{;\s]|const )([A-Za-z_$][\w$]*)=JSON\.parse\(("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\)/g;
const FREEZE = /Object\.freeze\(\{__proto__:null,([^{}]*)\}\)/g;
const RUNTIME =
  'class __TgLazyJSON{constructor(t){this.t=t}}' +
  'function __tgLazyFreeze(o){for(const k of Object.keys(o)){const v=o[k];if(v instanceof __TgLazyJSON){let r;' +
  'Object.defineProperty(o,k,{enumerable:true,configurable:false,get:()=>r??=JSON.parse(v.t)})}}return Object.freeze(o)}';

/** The same, for tables kept in the file `name` beside the bundle (__dirname): [start, end) of its latin1 text. */
const sideRuntime = (name) =>
  'class __TgLazyJSON{constructor(s,e){this.s=s;this.e=e}}let __tgTablesText;' +
  'function __tgLazyFreeze(o){for(const k of Object.keys(o)){const v=o[k];if(v instanceof __TgLazyJSON){let r;' +
  'Object.defineProperty(o,k,{enumerable:true,configurable:false,get:()=>r??=JSON.parse((__tgTablesText??=' +
  `require('node:fs').readFileSync(require('node:path').join(__dirname,${JSON.stringify(name)}),'latin1')).slice(v.s,v.e))})}}` +
  'return Object.freeze(o)}';

/**
 * `source` with its namespace-only JSON tables parsed on demand, and how many were and were not; with
 * `sideFile`, also `tables`, the text of the file the deferred tables are then read from.
 */
export function lazyJsonTables(source, { sideFile } = {}) {
  const inFreeze = new Map();
  for (const f of source.matchAll(FREEZE)) {
    for (const m of f[1].matchAll(/:([A-Za-z_$][\w$]*)/g)) inFreeze.set(m[1], (inFreeze.get(m[1]) ?? 0) + 1);
  }
  const lazy = new Set();
  let eager = 0;
  for (const d of source.matchAll(DEF)) {
    const name = d[2];
    const uses = source.match(new RegExp(`(?<![\\w$.])${name.replaceAll('$', '\\$')}(?![\\w$])`, 'g'))?.length ?? 0;
    const entries = inFreeze.get(name) ?? 0;
    if (entries > 0 && uses === 1 + entries) lazy.add(name);
    else eager++;
  }
  if (lazy.size === 0) return { source, lazy: 0, eager };
  let tables = '';
  let out = source.replace(DEF, (all, pre, name, literal) => {
    if (!lazy.has(name)) return all;
    if (sideFile === undefined) return `${pre}${name}=new __TgLazyJSON(${literal})`;
    // The literal's value (a JSON text), as the program would have seen it; latin1 at run time needs ASCII.
    const text = runInNewContext(literal);
    if (/[^\x00-\x7f]/.test(text))
      throw new Error(`${name}: a JSON table with non-ASCII text cannot go to ${sideFile}`);
    const start = tables.length;
    tables += text;
    return `${pre}${name}=new __TgLazyJSON(${start},${tables.length})`;
  });
  out = out.replaceAll('Object.freeze({__proto__:null,', '__tgLazyFreeze({__proto__:null,');
  // After the "use strict" directive, which must stay the file's first statement.
  const directive = /^\s*(["'])use strict\1;?/.exec(out);
  const at = directive ? directive[0].length : 0;
  const runtime = sideFile === undefined ? RUNTIME : sideRuntime(sideFile);
  return {
    source: `${out.slice(0, at)}${runtime}${out.slice(at)}`,
    lazy: lazy.size,
    eager,
    ...(sideFile === undefined ? {} : { tables }),
  };
}
