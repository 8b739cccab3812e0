// Loads dist/bundle/cli.cjs through V8's code cache: Node 20 has no compile cache (module.enableCompileCache
// is Node 22), so the bundle is compiled with vm.Script and the code V8 compiled during the first run
// (what that command called, not only the top level, which is all v8-compile-cache keeps) is saved and
// handed back to V8 on later runs. A cache V8 rejects (another Node, changed flags or bundle) is
// rewritten; without a usable cache directory the CLI runs uncached.
// TOLLGATE_COMPILE_CACHE=<dir> puts the cache there, =0 turns it off; NODE_COMPILE_CACHE is honoured too.
// bin/tollgate.js uses it on the main thread; lint's worker threads start on this file, so they load the
// bundle from the same cache (run as a thread's entry, it loads the bundle, whose top level does the work).
'use strict';
const { createRequire } = require('node:module');
const { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { isMainThread } = require('node:worker_threads');

const file = join(__dirname, '..', 'dist', 'bundle', 'cli.cjs');

/** Where the cache may live: a directory this user owns that no one else can write, or null. */
function cacheDir() {
  const chosen = process.env.TOLLGATE_COMPILE_CACHE ?? process.env.NODE_COMPILE_CACHE;
  if (chosen === '0' || chosen === '') return null;
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const dir = chosen ?? join(tmpdir(), `tollgate-compile-cache-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    // A shared temporary directory: code read from a folder another user can write would run as this one.
    if (uid !== null && (st.uid !== uid || (st.mode & 0o022) !== 0)) return null;
    return dir;
  } catch {
    return null;
  }
}

/** The bundle's exports, and `save()`, which writes the cache when there was none or V8 rejected it. */
function loadCli() {
  const source = readFileSync(file, 'utf8');
  const dir = cacheDir();
  let cacheFile = null;
  let cachedData;
  if (dir !== null) {
    const st = statSync(file);
    cacheFile = join(dir, `cli-${process.version}-${process.arch}-${st.size}-${Math.floor(st.mtimeMs)}.v8`);
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // Worker threads of lint start here (src/lint/parallel.ts looks for this).
  globalThis[Symbol.for('tollgate.cli.loader')] = __filename;
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const stale = cacheFile !== null && (cachedData === undefined || script.cachedDataRejected);
  const save = () => {
    if (!stale) return;
    try {
      const tmp = `${cacheFile}.${process.pid}`;
      writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      renameSync(tmp, cacheFile);
    } catch {
      // An unwritable cache only costs the next start its compile time.
    }
  };
  return { exports: module.exports, save };
}

if (isMainThread) module.exports = { loadCli };
else loadCli();
