// Bundles what the package runs: the CLI and the public entry points, from src/, as ES modules
// with shared chunks (esbuild's code splitting), into dist/bundle/. Loading ~200 small modules
// (ours, zod's) was most of the cold start of `tollgate lint one-file.xml`; a handful of files load
// in a fraction. Entry points that share code share one chunk of it, so `tollgate` and
// `tollgate/runtime` hand each other the same classes, and `tollgate/runtime` alone loads no zod
// and no parser. tsc's unbundled dist/**/*.js stays for the benchmarks; the package ships only
// these bundles and tsc's .d.ts files.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

export const ENTRY_POINTS = {
  cli: 'src/cli/index.ts',
  index: 'src/index.ts',
  runtime: 'src/runtime/index.ts',
  lint: 'src/api/lint.ts',
  compile: 'src/api/compile.ts',
  schema: 'src/api/schema.ts',
  embed: 'src/embed/index.ts',
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
  // recheck (2.9 MB, loaded lazily by the regex-redos rule) stays a package import: bundled, every start would parse it.
  // The language server's libraries likewise: only `tollgate lsp` loads them (src/lsp/server.ts requires them).
  external: ['recheck', 'vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'],
  // CommonJS dependencies bundled here (saxes, picomatch) call require(); give each output file one.
  banner: { js: "import { createRequire as __tollgateRequire } from 'node:module'; const require = __tollgateRequire(import.meta.url);" },
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
