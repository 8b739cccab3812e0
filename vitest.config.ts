import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { NEEDS_SHARED, SHARED_DIR } from './test/shared-dir.js';

// A clone alone (without ../shared) runs everything but the suites that read the real-world corpus,
// and says so once, instead of failing them at import.
const sharedMissing = !existsSync(SHARED_DIR);
if (sharedMissing) {
  process.stderr.write(
    `tollgate: no shared folder at ${SHARED_DIR} (set TOLLGATE_SHARED): not running ${NEEDS_SHARED.join(', ')}\n`,
  );
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/conformance/**', 'node_modules/**', ...(sharedMissing ? NEEDS_SHARED : [])],
    // Hang guards, not measures: no verdict depends on them. A test that took 3 s alone took 23 s beside a
    // load of 20 and failed a 20 s timeout; CPU-bound checks measure CPU time or count work instead.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
