// Bundles the compiled CLI into one ES module. Loading ~200 small modules (ours, zod's)
// was most of the cold start of `tollgate lint one-file.xml`; one file loads in a fraction.
// The library entry points (dist/index.js, dist/runtime/index.js) stay unbundled.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/index.js'],
  outfile: 'dist/cli.bundle.mjs',
  bundle: true,
  platform: 'node',
  // jsonc-parser's CommonJS entry is a UMD wrapper whose require() calls esbuild cannot follow: prefer ES modules.
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // recheck (2.9 MB, loaded lazily by the regex-redos rule) stays a package import: bundled, every start would parse it.
  external: ['recheck'],
  // CommonJS dependencies (yargs) call require(); give the bundle one.
  banner: { js: "import { createRequire as __tollgateRequire } from 'node:module'; const require = __tollgateRequire(import.meta.url);" },
});
