// The two functions of node:assert that yargs calls, for its own invariants, on every start. Loading
// node:assert was 2.4 ms of `tollgate lint`'s start (bench/cold-start-modules.ts), and yargs' pkgUp
// fails one of them on purpose when no package.json lies above the entry point (it catches the
// error), so this throws an error of the same name and code without loading node:assert.
// Bundled into the CLI in place of yargs' require('assert') (scripts/bundle.mjs).
'use strict';
function fail(message, fallback) {
  if (message instanceof Error) throw message;
  const err = new Error(message ?? fallback);
  err.name = 'AssertionError';
  err.code = 'ERR_ASSERTION';
  throw err;
}
// Object.is, as node:assert's strict comparisons.
exports.notStrictEqual = (actual, expected, message) => {
  if (Object.is(actual, expected)) fail(message, `Expected "actual" to be strictly unequal to: ${String(expected)}`);
};
exports.strictEqual = (actual, expected, message) => {
  if (!Object.is(actual, expected))
    fail(message, `Expected values to be strictly equal: ${String(actual)} !== ${String(expected)}`);
};
