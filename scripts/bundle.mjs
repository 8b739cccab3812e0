// Bundles what the package runs: the CLI and the public entry points, from src/, as ES modules
// with shared chunks (esbuild's code splitting), into dist/bundle/. Loading ~200 small modules
// (ours, zod's) was most of the cold start of `tollgate lint one-file.xml`; a handful of files load
// in a fraction. Entry points that share code share one chunk of it, so `tollgate` and
// `tollgate/runtime` hand each other the same classes, and `tollgate/runtime` alone loads no zod
// and no parser. tsc's unbundled dist/**/*.js stays for the benchmarks; the package ships only
// these bundles and tsc's .d.ts files.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, resolve } from 'node:path';
import { build } from 'esbuild';
import { lazyJsonTables } from './lazy-json-tables.mjs';

/** What Node wraps a CommonJS module in; bin/load-cli.cjs calls the function the script evaluates to. */
const CJS_WRAPPER = '(function (exports, require, module, __filename, __dirname) {';

export const ENTRY_POINTS = {
  index: 'src/index.ts',
  runtime: 'src/runtime/index.ts',
  lint: 'src/api/lint.ts',
  compile: 'src/api/compile.ts',
  schema: 'src/api/schema.ts',
  embed: 'src/embed/index.ts',
  'stores-redis': 'src/stores/redis.ts',
};

rmSync('dist/bundle', { recursive: true, force: true });
await build({
  entryPoints: ENTRY_POINTS,
  outdir: 'dist/bundle',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  // jsonc-parser's CommonJS entry is a UMD wrapper whose require() calls esbuild cannot follow: prefer ES modules.
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  // No source maps: the CLI's was 2.9 MB of a 6.6 MB package, and the bundles are not minified,
  // so a stack trace already names readable code.
  sourcemap: false,
  logLevel: 'warning',
  // recheck's JavaScript build is its own file (dist/bundle/recheck.cjs, below), loaded by the regex-redos rule on first use: bundled in, every start would parse it.
  // The language server's libraries likewise: only `tollgate lsp` loads them (src/lsp/server.ts requires them).
  external: ['recheck', 'vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'],
  // CommonJS dependencies bundled here (saxes, picomatch) call require(); give each output file one.
  banner: {
    js: "import { createRequire as __tollgateRequire } from 'node:module'; const require = __tollgateRequire(import.meta.url);",
  },
});

// src/ loads large libraries on first use with createRequire(import.meta.url)('refa'), which esbuild
// cannot follow. In the CommonJS build that is a plain require('refa'): bundled, still initialised on
// first use only, and its compiled code lands in the code cache (refa and regexpp were compiled afresh
// by every lint of a file with an address pattern). Externals stay package imports.
const lazyRequiresBundled = {
  name: 'lazy-requires-bundled',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('createRequire(import.meta.url)(')) return undefined;
      return { contents: text.replaceAll('createRequire(import.meta.url)(', 'require('), loader: 'ts' };
    });
  },
};

// refa's Unicode tables are parsed on first use in the CLI, from dist/bundle/refa-tables.txt, which only the
// first use reads (scripts/lazy-json-tables.mjs says why and how). Every CLI bundle writes the same file.
const REFA_TABLES = 'refa-tables.txt';
const refaTablesOnDemand = {
  name: 'refa-tables-on-demand',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]refa[\\/]index\.js$/ }, async (args) => {
      const { source, lazy, tables } = lazyJsonTables(await readFile(args.path, 'utf8'), { sideFile: REFA_TABLES });
      if (lazy === 0)
        console.warn(
          `${args.path}: no JSON table left to parse on demand (refa's layout changed): lint pays 8 ms more at start`,
        );
      await writeFile(`dist/bundle/${REFA_TABLES}`, tables, 'latin1');
      return { contents: source, loader: 'js' };
    });
  },
};

// The catalogue's two large tables (src/catalogue/tomcat-*.json, 190 KB) as files beside the bundle, read and parsed
// on the first access of their data: esbuild's JSON loader writes them as object literals, which V8 compiled into
// every lint's code cache and built at every start, and `tollgate lint` of web.xml files alone never reads them. The
// module's default export stands in for the table (a Proxy reading it on first use: src/catalogue/index.ts only
// reads its properties, and spreads it).
const catalogueOnDemand = {
  name: 'catalogue-on-demand',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]catalogue[\\/]tomcat-[\d.]+\.json$/ }, async (args) => {
      const name = `catalogue-${basename(args.path)}`;
      await writeFile(`dist/bundle/${name}`, JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))));
      return {
        loader: 'js',
        contents: `let data;
const table = () => (data ??= JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, ${JSON.stringify(name)}), 'utf8')));
export default new Proxy({}, {
  get: (_, key) => table()[key],
  has: (_, key) => key in table(),
  ownKeys: () => Reflect.ownKeys(table()),
  getOwnPropertyDescriptor: (_, key) => {
    const d = Reflect.getOwnPropertyDescriptor(table(), key);
    return d && { ...d, configurable: true };
  },
});
`,
      };
    });
  },
};

// yargs requires node:assert for two functions: scripts/assert-for-yargs.cjs stands in for it.
const assertForYargs = {
  name: 'assert-for-yargs',
  setup(b) {
    b.onResolve({ filter: /^assert$/ }, (args) =>
      /[\\/]node_modules[\\/]yargs[\\/]/.test(args.importer)
        ? { path: resolve('scripts/assert-for-yargs.cjs') }
        : undefined,
    );
  },
};

// The CLI: one CommonJS file, so bin/tollgate.js can compile it through vm.Script with V8's code
// cache (Node 20 has no compile cache for ES modules; module.enableCompileCache is Node 22). Every
// command is in it, zod and yargs too, but src/cli/index.ts imports each command with import(), which
// esbuild turns into a function that evaluates that command's modules on first call: a run evaluates
// only what its command imports, and with the cache, code a run does not call costs a read, not a parse.
// import.meta.url becomes the file's URL (workers, assets and package.json are found from it).
const cliOptions = {
  entryPoints: ['src/cli/index.ts'],
  bundle: true,
  platform: 'node',
  mainFields: ['module', 'main'],
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  logLevel: 'warning',
  external: ['recheck', 'vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'],
  define: { 'import.meta.url': '__tollgate_url' },
  banner: { js: "const __tollgate_url = require('node:url').pathToFileURL(__filename).href;" },
};
await build({
  ...cliOptions,
  outfile: 'dist/bundle/cli.cjs',
  plugins: [lazyRequiresBundled, refaTablesOnDemand, assertForYargs, catalogueOnDemand],
});
await finishCli('dist/bundle/cli.cjs');

// The same CLI with one command's code only, for the commands bin/load-cli.cjs lists in OWN_BUNDLE (lint): a
// start reads and compiles the whole file it runs, even with the code cache (the source is read, copied into a
// string and kept), and for `tollgate lint <one web.xml>` the other commands were a third of the 3.7 MB. What
// src/cli/index.ts imports that such a run never evaluates is left out: the other commands (main() loads only
// the command argv starts with, and bin/load-cli.cjs picks this file only for that command) and serve's persist
// thread (it starts on the whole CLI). Importing a left-out module says so instead of running another command.
for (const word of createRequire(import.meta.url)('../bin/load-cli.cjs').OWN_BUNDLE) {
  const path = `dist/bundle/cli-${word}.cjs`;
  const leftOut = (spec) =>
    spec.startsWith('./commands/') ? spec !== `./commands/${word}.js` : spec === '../server/persist.js';
  const onlyThisCommand = {
    name: 'only-this-command',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) =>
        /[\\/]src[\\/]cli[\\/]index\.ts$/.test(args.importer) && leftOut(args.path)
          ? { path: args.path, namespace: 'left-out' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${path} runs \`tollgate ${word}\` only and has no ${args.path}: bin/load-cli.cjs runs every other command from dist/bundle/cli.cjs`)});`,
        loader: 'js',
      }));
    },
  };
  await build({
    ...cliOptions,
    outfile: path,
    plugins: [onlyThisCommand, lazyRequiresBundled, refaTablesOnDemand, assertForYargs, catalogueOnDemand],
  });
  await finishCli(path, [word]);
}

/**
 * Makes the CLI bundle ASCII-only and heads it with its content hash and command words, for
 * bin/load-cli.cjs. esbuild escapes every non-ASCII character in code (its default charset), but keeps
 * a few comments as written: escaped there too, the file reads as latin1, at a fifth of the cost of
 * decoding 3 MB of UTF-8 on every start. The hash names the V8 code caches: V8 checks only a source's
 * length, and npm gives every packed file the same mtime, so size and mtime cannot tell two versions apart.
 * The bundle is then no module of its own: only bin/load-cli.cjs runs it.
 */
async function finishCli(path, only) {
  const text = await readFile(path, 'utf8');
  const lines = text.split('\n');
  for (const [i, line] of lines.entries()) {
    // Outside a comment a raw non-ASCII character would be code, which escaping would change.
    if (/[^\x00-\x7f]/.test(line) && !/^\s*(\/\/|\/?\*)/.test(line))
      throw new Error(`${path}:${i + 1}: non-ASCII outside a comment`);
  }
  const ascii = text.replace(/[^\x00-\x7f]/g, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  // The file is the script bin/load-cli.cjs compiles, wrapped as a CommonJS function already: wrapping it at load
  // built a second 3.6 MB string on every start (900 more page faults). The header stays line 1, so line numbers
  // in a stack trace are the file's. The wrapper is hashed too: a cache V8 compiled for the earlier layout (the
  // same length) must not be taken.
  const body = `${CJS_WRAPPER}${ascii}\n})`;
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  // The command words, from the bundle itself: its top level only lists the commands.
  // cli-<word>.cjs names its one command: a run of any other takes the cache named `other`.
  const words = only ?? createRequire(import.meta.url)(resolve(path)).commands.map((c) => c.name.split(' ')[0]);
  await writeFile(path, `// tollgate-cli ${hash} ${words.join(',')}\n${body}`);
}

/** A bundled package's licence text, or its package.json licence field where it ships none. */
async function licence(pkg) {
  for (const name of ['LICENSE', 'LICENSE.txt', 'LICENSE.md']) {
    const text = await readFile(`node_modules/${pkg}/${name}`, 'utf8').catch(() => null);
    if (text !== null) return `${pkg}:\n${text}`;
  }
  return `${pkg}: ${JSON.parse(await readFile(`node_modules/${pkg}/package.json`, 'utf8')).license} licence\n`;
}

// recheck's JavaScript build (the regex-redos rule's analyser) as one file the package ships, so
// that installing tollgate installs no recheck package: its optional dependencies are a 23 MB Java
// JAR and a 29 MB native binary. Loaded on first use by src/lint/rules/regex-redos.ts.
await build({
  entryPoints: { recheck: 'node_modules/recheck/lib/main.js' },
  // Their licences (MIT, and tslib's 0BSD) travel with the code.
  banner: {
    js: `/*\n${(await Promise.all(['recheck', 'synckit', '@pkgr/core', 'tslib'].map(licence))).join('\n').replaceAll('*/', '* /')}*/`,
  },
  outdir: 'dist/bundle',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: false,
  logLevel: 'error',
});

// The runtime's chain selector for the browser: \`tollgate report\` inlines it in the page, so its URL
// box gives the chain \`tollgate chain --path\` gives, from the same code (src/report/html.ts).
await build({
  entryPoints: ['src/protocol/chain-selector.ts'],
  outfile: 'dist/bundle/assets/chain-selector.js',
  bundle: true,
  format: 'iife',
  globalName: 'TollgateSelector',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  logLevel: 'warning',
});
