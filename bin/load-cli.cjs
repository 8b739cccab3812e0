// Loads dist/bundle/cli.cjs (or a command's own, cli-lint.cjs) through V8's code cache: Node 20 has no compile cache (module.enableCompileCache
// is Node 22), so the bundle is compiled with vm.Script and the code V8 compiled during the first run
// (what that command called, not only the top level, which is all v8-compile-cache keeps) is saved and
// handed back to V8 on later runs. A cache V8 rejects (another Node, changed flags) is rewritten; without
// a usable cache directory the CLI runs uncached.
// One cache per command (`lint`, `serve`, ...): the bundle evaluates only the invoked command's modules,
// so a cache written by `serve` would hand lint megabytes of code it never runs, and one written by
// `--help` none of lint's.
// TOLLGATE_COMPILE_CACHE=<dir> puts the cache there, =0 turns it off; NODE_COMPILE_CACHE is honoured too.
// bin/tollgate.js uses it on the main thread; lint's worker threads start on this file, so they load the
// bundle from lint's cache (run as a thread's entry, it loads the bundle and starts the thread's work).
'use strict';
const { createRequire } = require('node:module');
const {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join } = require('node:path');
const vm = require('node:vm');
const { isMainThread, workerData } = require('node:worker_threads');

const dist = join(__dirname, '..', 'dist', 'bundle');

/**
 * Commands with a bundle of their own, dist/bundle/cli-<command>.cjs (scripts/bundle.mjs writes one per entry):
 * the same CLI with that command's code only, used when argv starts with the command. V8 needs the whole source
 * of what it runs even with the code cache, and reading `tollgate lint`'s 2.8 MB instead of the whole CLI's
 * 3.7 MB was 630 fewer page faults per start (8% of them; bench/README.md).
 */
const OWN_BUNDLE = ['lint'];

/** Cache files: `<bundle hash>-<node version>-<arch>-<command>.v8`. */
const CACHE_NAME = /^([0-9a-f]{16})-[^-]+-[^-]+-[a-z]+\.v8$/;
/** Another bundle's cache (another installed version) not used for this long is removed. */
const STALE_MS = 7 * 24 * 3600 * 1000;
/** Past this many bytes of caches, other bundles' least recently used ones go first. */
const MAX_BYTES = 64 * 1024 * 1024;
/** A cache in use has its mtime set at most this often: the mtime is when it was last used. */
const TOUCH_MS = 3600 * 1000;
/** A temporary file older than this was left by a process that died while writing. */
const ORPHAN_MS = 60_000;

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

/**
 * Removes what other bundles left, least recently used first: their caches (and those of earlier naming
 * schemes) not used for STALE_MS, then more of them while all caches together exceed `maxBytes`, and
 * orphaned temporary files. The running bundle's caches stay. Used caches have their mtime refreshed
 * (loadCli), so several versions in use side by side keep theirs: a count of bundles to keep would make
 * them evict each other on every start. Runs only after writing a cache (the first run of a command of a
 * new bundle), so ordinary starts never list the directory. Another process may be deleting or writing
 * the same files: every failure is ignored (a deleted cache costs its owner one uncached start; a reader
 * already holds its bytes).
 */
function prune(dir, hash, maxBytes = MAX_BYTES) {
  const now = Date.now();
  const others = [];
  let total = 0;
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const remove = (name) => {
    try {
      unlinkSync(join(dir, name));
      return true;
    } catch {
      return false; // gone already, or not ours to delete
    }
  };
  for (const name of names) {
    let st;
    try {
      st = statSync(join(dir, name));
    } catch {
      continue;
    }
    const m = CACHE_NAME.exec(name);
    // Only names this loader writes (and wrote before): another program's file in a directory it was pointed at stays.
    if (m === null && !/^cli-v\d.*\.v8$/.test(name)) {
      if (/\.v8\.\d+$/.test(name) && now - st.mtimeMs > ORPHAN_MS) remove(name);
      continue;
    }
    total += st.size;
    if (m !== null && m[1] === hash) continue;
    if (now - st.mtimeMs > STALE_MS) {
      if (remove(name)) total -= st.size;
      continue;
    }
    others.push({ name, size: st.size, mtime: st.mtimeMs });
  }
  others.sort((a, b) => a.mtime - b.mtime);
  for (const f of others) {
    if (total <= maxBytes) break;
    if (remove(f.name)) total -= f.size;
  }
}

/**
 * The bundle's exports, and `save()`, which writes the cache when there was none or V8 rejected it.
 * `command` names the cache: the command word, or anything else for runs without one (help, a typo).
 */
function loadCli(command) {
  const file = join(dist, OWN_BUNDLE.includes(command) ? `cli-${command}.cjs` : 'cli.cjs');
  // scripts/bundle.mjs writes the bundle in ASCII only, so latin1 reads it exactly, at a fifth of
  // the cost of UTF-8 decoding 3 MB; its first line carries its content hash and the command words.
  const source = readFileSync(file, 'latin1');
  const header = /^\/\/ tollgate-cli ([0-9a-f]{16}) ([a-z,]+)\n/.exec(source);
  const hash = header?.[1] ?? null;
  const dir = hash === null ? null : cacheDir();
  const key = header !== null && header[2].split(',').includes(command) ? command : 'other';
  let cacheFile = null;
  let cachedData;
  if (dir !== null) {
    cacheFile = join(dir, `${hash}-${process.version}-${process.arch}-${key}.v8`);
    try {
      const st = statSync(cacheFile);
      cachedData = readFileSync(cacheFile);
      // Marks it used, for prune(); an hour's precision is enough, and spares a write on every start.
      if (Date.now() - st.mtimeMs > TOUCH_MS) utimesSync(cacheFile, new Date(), new Date());
    } catch {
      // None yet, or not ours to mark: a cache read before the mark failed is still used.
    }
  }
  // The file is wrapped as a CommonJS function already (scripts/bundle.mjs): compiled as read, with no copy.
  const script = new vm.Script(source, {
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
      return;
    }
    prune(dir, hash);
  };
  return { exports: module.exports, save };
}

if (isMainThread) {
  module.exports = { loadCli, prune, OWN_BUNDLE };
} else {
  // The main thread's lint cache: it ran the same code (lint --workers evaluates src/lint/parallel.ts and
  // lints its own part there). Not saved here: the main thread ends the thread once it has its part.
  // The bundle's top level starts the thread's work (src/cli/index.ts). serve's persist thread takes the
  // whole CLI, which it started from (lint's bundle has no server); lint's and the language server's lint
  // threads take lint's.
  loadCli(workerData && workerData.tollgatePersistRewrite ? 'serve' : 'lint');
}
