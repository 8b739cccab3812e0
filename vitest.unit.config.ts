import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:unit`: everything that runs in-process, without starting Tomcat, Redis, Chromium, Neovim,
 * Java, oscap or npm itself, and without the long traffic and fuzz runs. `npm test` runs these and the
 * system tests below (what CI runs).
 */
export const SYSTEM_TESTS = [
  'test/stores/redis.test.ts', // redis-server
  'test/stores/redis-replies.test.ts', // redis-server
  'test/stores/compiled.test.ts', // redis-server, two serve processes
  'test/stores/cross-instance.test.ts', // redis-server, two serve processes
  'test/server/cluster.test.ts', // serve --workers, redis-server
  'test/report/browser.test.ts', // chromium
  'test/lsp/nvim.test.ts', // neovim
  'test/catalogue/regenerate.test.ts', // java and Tomcat's jars
  'test/audit/export-debian.test.ts', // Debian's Tomcat, oscap, chromium
  'test/audit/export-formats.test.ts', // oscap, chromium
  'test/cli/package.test.ts', // npm pack and npm install
  'test/integrations/**', // npm pack and npm install, Debian's pre-commit
  'test/hardening/traffic-soak.test.ts', // the served example in a child process under 47,000 requests
  'test/hardening/traffic-connections.test.ts', // thousands of sockets held open
  'test/fuzz/**', // the fuzzer's replay (CPU-bound, minutes on a loaded machine)
];

export default mergeConfig(
  base,
  defineConfig({
    test: {
      exclude: [...(base.test?.exclude ?? []), ...SYSTEM_TESTS],
      reporters: ['default'],
    },
  }),
);
