#!/usr/bin/env node
import { main } from '../dist/bundle/cli.js';

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err) => {
    // Last line of defence: a bug in tollgate itself, never bad user input.
    process.stderr.write(`tollgate: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
