#!/usr/bin/env node
// The CLI, dist/bundle/cli.cjs, loaded through V8's code cache (bin/load-cli.cjs says how).
import { createRequire } from 'node:module';

const { loadCli } = createRequire(import.meta.url)('./load-cli.cjs');
const { exports: cli, save } = loadCli();
cli.main(process.argv.slice(2)).then(
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
