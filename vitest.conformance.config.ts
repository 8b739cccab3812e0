import { defineConfig } from 'vitest/config';

// Real Tomcat against tollgate (test/conformance, issue 6). Each file boots JVMs, and the machine
// has two cores: files run one at a time. npm run conformance builds first (tollgate serve runs from dist/).
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.conformance.test.ts'],
    globalSetup: ['test/conformance/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
