import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `npm run test:unit`: everything that runs in-process, without starting Tomcat, Redis, Chromium, Neovim,
 * Java, oscap, npm or tollgate's own child processes and worker threads, and without the long traffic, fuzz
 * and corpus-wide differential runs. `npm test` runs these and the system tests below (what CI runs).
 */
export const SYSTEM_TESTS = [
  'test/stores/redis.test.ts', // redis-server
  'test/stores/redis-replies.test.ts', // redis-server
  'test/stores/flood.test.ts', // redis-server, and 100,000 requests in memory (137 of 415 s of unit test time)
  'test/stores/compiled.test.ts', // redis-server, two serve processes
  'test/stores/cross-instance.test.ts', // redis-server, two serve processes
  'test/server/cluster.test.ts', // serve --workers, redis-server
  'test/server/worker-death.test.ts', // serve --workers, a worker SIGKILLed
  'test/server/stop-deadline.test.ts', // serve and redis-server, SIGSTOPped
  'test/server/fleet.test.ts', // haproxy, redis-server, two serve --workers 2
  'test/server/serve-log.test.ts', // serve --workers in child processes
  'test/report/browser.test.ts', // chromium
  'test/server/example-base-browser.test.ts', // chromium
  'test/lsp/nvim.test.ts', // neovim
  'test/catalogue/regenerate.test.ts', // java and Tomcat's jars
  'test/audit/export-debian.test.ts', // Debian's Tomcat, oscap, chromium
  'test/audit/export-formats.test.ts', // oscap, chromium
  'test/cli/package.test.ts', // npm pack and npm install
  'test/integrations/**', // npm pack and npm install, Debian's pre-commit, @github/local-action
  'test/hardening/traffic-soak.test.ts', // the served example in a child process under 47,000 requests
  'test/hardening/traffic-connections.test.ts', // thousands of sockets held open
  'test/fuzz/**', // the fuzzer's replay (CPU-bound, minutes on a loaded machine)
  // Child processes (the CLI, serve, the language server, a tsx child per case): each costs a Node start-up
  // and a transform: together 434 of the unit tier's 1,089 s of test time in one full run under load.
  'test/server/persist.test.ts', // host-manager persist in a child process per case
  'test/hardening/host-manager-persist.test.ts', // the same, killed mid-write
  'test/hardening/xml-attacks.test.ts', // the CLI and serve under hostile XML, in child processes
  'test/cli/start.test.ts', // npm start and the CLI, in child processes
  'test/security/hostile-repo.test.ts', // the CLI over a hostile repository, in child processes
  'test/security/lsp-coalesce.test.ts', // the language server process under a burst of edits
  'test/lsp/lsp.test.ts', // the language server process
  'test/server/systemd-unit.test.ts', // systemd-analyze
  'test/server/reload.test.ts', // serve in child processes, one with --workers 2, reloaded by SIGHUP
  // Worker threads, and differential or scaling runs over every file of the corpus or thousands of
  // generated inputs: CPU-bound, 310 s more of that run. All of these keep running in `npm test`.
  'test/lint/parallel.test.ts', // lint on worker threads against one thread, over the corpus
  'test/server/persist-files.test.ts', // rewrites on a worker thread, a 10,000-host file
  'test/parser/fast-path.test.ts', // the fast XML path against saxes on every file and their mutations
  'test/parser/direct-webxml.test.ts', // the direct web.xml reader against the tree path, the same way
  'test/parser/hostile.test.ts', // hostile shapes grown until their cost shows its order
  'test/hardening/regex-redos.test.ts', // recheck's verdict on every pattern of the hostile sets
  'test/hardening/host-manager-bruteforce.test.ts', // password spraying over HTTP against PBKDF2 digests
];

/**
 * Files that need a module graph of their own: vi.mock replaces a module other files import, which a
 * shared graph would have loaded already.
 */
export const ISOLATED_TESTS = ['test/plan/runtime-options.test.ts'];

const exclude = [...(base.test?.exclude ?? []), ...SYSTEM_TESTS];
const { include, testTimeout, hookTimeout, pool } = base.test ?? {};

/**
 * The unit tier runs its files without isolation (`isolate: false`): each worker process imports src once
 * and runs file after file in it, instead of a fresh module graph per file. Measured on the 158 files
 * (forks, 2 workers, load ~21): 299 s of CPU (user+sys) isolated, 92 s shared; the import share of
 * vitest's time went from 536 s to 133 s. Files must leave no state behind (the tests that set a log sink
 * or process.env.TZ put them back); `--sequence.shuffle.files` runs found no file that depends on another.
 * Forks, not threads: threads cost the same here (95 s) and share process.env.TZ across files running at
 * once, which the time-zone tests change. `npm test` (vitest.config.ts) keeps every file isolated.
 */
export default mergeConfig(
  base,
  defineConfig({
    test: {
      reporters: ['default'],
      projects: [
        {
          test: {
            name: 'unit',
            include,
            exclude: [...exclude, ...ISOLATED_TESTS],
            testTimeout,
            hookTimeout,
            pool,
            isolate: false,
          },
        },
        {
          test: {
            name: 'unit-isolated',
            include: ISOLATED_TESTS,
            exclude,
            testTimeout,
            hookTimeout,
            pool,
            isolate: true,
          },
        },
      ],
    },
  }),
);
