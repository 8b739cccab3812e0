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
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
});
