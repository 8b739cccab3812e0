#!/usr/bin/env node
// Starts the CLI (dist/bundle/cli.cjs) through V8's code cache: Node 20 has no compile cache
// (module.enableCompileCache is Node 22), so the bundle is compiled with vm.Script and the code V8
// compiled during the first run (what that command called, not only the top level, which is all
// v8-compile-cache keeps) is saved and handed back to V8 on later runs. A cache V8 rejects (another
// Node, changed flags or bundle) is rewritten; without a usable cache directory the CLI runs uncached.
// TOLLGATE_COMPILE_CACHE=<dir> puts the cache there, =0 turns it off; NODE_COMPILE_CACHE is honoured too.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const file = fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url));

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

function load() {
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
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  const save = cacheFile !== null && (cachedData === undefined || script.cachedDataRejected)
    ? () => {
        try {
          const tmp = `${cacheFile}.${process.pid}`;
          writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
          renameSync(tmp, cacheFile);
        } catch {
          // An unwritable cache only costs the next start its compile time.
        }
      }
    : () => {};
  return { main: module.exports.main, save };
}

const { main, save } = load();
main(process.argv.slice(2)).then(
  (code) => {
    save();
    process.exitCode = code;
  },
  (err) => {
    // Last line of defence: a bug in tollgate itself, never bad user input.
    process.stderr.write(`tollgate: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
