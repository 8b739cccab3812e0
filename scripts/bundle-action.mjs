// Bundles the GitHub Action (action/src, with @actions/core) into action/index.cjs, the one file action.yml runs:
// GitHub checks out the action's repository and runs that file with its own Node, with no npm install.
// The file is committed; test/integrations/action.test.ts fails when it differs from what this script builds.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

export async function bundleAction() {
  const out = await build({
    entryPoints: ['action/src/index.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    legalComments: 'eof',
    logLevel: 'warning',
  });
  return out.outputFiles[0].text;
}

// --print writes the bundle to standard output instead (the test compares it with the committed file).
if (process.argv.includes('--print')) process.stdout.write(await bundleAction());
else writeFileSync('action/index.cjs', await bundleAction());
