#!/usr/bin/env node
// The CLI, dist/bundle/cli.cjs (lint: cli-lint.cjs), loaded through V8's code cache (bin/load-cli.cjs says how).
// CommonJS (bin/package.json says so): an ES module entry costs every start Node's ESM loader, 5 ms.
'use strict';
const { loadCli } = require('./load-cli.cjs');

const argv = process.argv.slice(2);
let loaded;
try {
  loaded = loadCli(argv[0]);
} catch (err) {
  // A git checkout that was never built has no bundle: say how to build it, not a stack trace.
  if (err && err.code === 'ENOENT') {
    const name = typeof err.path === 'string' ? require('node:path').basename(err.path) : 'cli.cjs';
    process.stderr.write(`tollgate: dist/bundle/${name} is missing: run \`npm run build\` in the checkout first\n`);
    process.exit(2);
  }
  throw err;
}
const { exports: cli, save } = loaded;
cli.main(argv).then(
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
