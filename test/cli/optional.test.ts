import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { loadOptional, OPTIONAL_PACKAGES } from '../../src/cli/optional.js';

// A folder with no node_modules on its way up: Node's resolution fails there as it does in an install without the peers.
const empty = mkdtempSync(join(tmpdir(), 'tollgate-optional-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

/**
 * Node's own import() of `url` in a child process (vitest's would resolve from the project and find the dev
 * dependency): the error it fails with, code and message as Node writes them.
 */
function nativeImport(url: string): Promise<unknown> {
  const script = `import(${JSON.stringify(url)}).then(() => console.log('{}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    code?: string;
    message?: string;
  };
  return out.message === undefined
    ? Promise.resolve({})
    : Promise.reject(Object.assign(new Error(out.message), { code: out.code }));
}

async function message(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('loadOptional resolved');
}

describe('optional peer dependencies', () => {
  it('are the optional peers package.json declares, with its ranges, and dev dependencies for the build', () => {
    const pkg = createRequire(import.meta.url)('../../package.json') as {
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
      dependencies: Record<string, string>;
    };
    expect(pkg.peerDependencies).toEqual(OPTIONAL_PACKAGES);
    for (const name of Object.keys(OPTIONAL_PACKAGES)) {
      expect(pkg.peerDependenciesMeta[name]).toEqual({ optional: true });
      expect(pkg.devDependencies[name]).toBe(pkg.peerDependencies[name]);
      expect(pkg.dependencies[name]).toBeUndefined();
    }
  });

  it('a missing language server library (require, as the CLI bundle loads it) is one line naming the package', async () => {
    const text = await message(
      loadOptional('the language server', ['vscode-languageserver', 'vscode-languageserver-textdocument'], async () =>
        createRequire(join(empty, 'server.cjs'))('vscode-languageserver/node'),
      ),
    );
    expect(text).toBe(
      'the language server needs the package vscode-languageserver, which is not installed (an optional peer dependency): run `npm install vscode-languageserver@^10.1.2 vscode-languageserver-textdocument@^1.0.16` where tollgate is installed (with -g for a global tollgate)',
    );
    expect(text).not.toContain('\n');
  });

  it('a missing package imported as an ES module is one line naming the package', async () => {
    const file = join(empty, 'lsp.mjs');
    writeFileSync(
      file,
      "import { createConnection } from 'vscode-languageserver/node';\nexport { createConnection };\n",
    );
    const text = await message(
      loadOptional('the language server', ['vscode-languageserver'], () => nativeImport(pathToFileURL(file).href)),
    );
    expect(text).toMatch(
      /^the language server needs the package vscode-languageserver, which is not installed .*`npm install vscode-languageserver@\^10\.1\.2`/,
    );
  });

  it('passes other failures through unchanged: another missing package, an error thrown while loading', async () => {
    const other = createRequire(join(empty, 'x.cjs'));
    await expect(
      loadOptional('the language server', ['vscode-languageserver'], async () => other('no-such-package-here')),
    ).rejects.toThrow(/Cannot find module 'no-such-package-here'/);
    await expect(
      loadOptional('the language server', ['vscode-languageserver'], async () => {
        throw new TypeError('boom');
      }),
    ).rejects.toThrow(TypeError);
  });

  it('returns what the load gives when the package is there', async () => {
    const loaded = await loadOptional('the language server', ['vscode-languageserver'], async () =>
      createRequire(import.meta.url)('vscode-languageserver/node'),
    );
    expect(typeof (loaded as { createConnection: unknown }).createConnection).toBe('function');
  });
});
