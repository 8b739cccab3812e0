import { UsageError } from './command.js';

/**
 * The packages tollgate loads for one opt-in feature only, declared as optional peer dependencies
 * (package.json peerDependencies, peerDependenciesMeta optional): npm does not install them with
 * tollgate, so a lint-only install stays small. Their ranges here are package.json's
 * (test/cli/optional.test.ts compares them).
 */
export const OPTIONAL_PACKAGES = {
  'vscode-languageserver': '^10.1.2',
  'vscode-languageserver-textdocument': '^1.0.16',
} as const;

export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/**
 * Runs `load` (an import of the feature's code); when it fails because one of `packages` is not
 * installed, throws a UsageError whose one line names the feature, the missing package and the
 * command that installs them. Any other failure passes through unchanged.
 */
export async function loadOptional<T>(
  feature: string,
  packages: readonly OptionalPackage[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (err) {
    const missing = missingPackage(err, packages);
    if (missing === null) throw err;
    const install = packages.map((p) => `${p}@${OPTIONAL_PACKAGES[p]}`).join(' ');
    throw new UsageError(
      `${feature} needs the package ${missing}, which is not installed (an optional peer dependency): run \`npm install ${install}\` where tollgate is installed (with -g for a global tollgate)`,
    );
  }
}

/** Which of `packages` a module-resolution failure is about (Node names the package in its message); null when none. */
export function missingPackage(err: unknown, packages: readonly string[]): string | null {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return null;
  const message = String((err as Error).message);
  return packages.find((p) => message.includes(`'${p}'`) || message.includes(`'${p}/`)) ?? null;
}
