/**
 * System tests read or run what Debian packages install. When one is missing the test fails with one
 * line that names the package (and that .ci/run installs it), instead of an assertion about its absence.
 */
import { spawnSync } from 'node:child_process';

/** Whether dpkg has the package installed. */
function installed(name: string): boolean {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/** Throws one line naming every package of `names` that is not installed. */
export function needPackages(...names: string[]): void {
  const missing = names.filter((n) => !installed(n));
  if (missing.length > 0)
    throw new Error(
      `needs the Debian package${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: apt-get install -y ${missing.join(' ')} (.ci/run installs ${missing.length > 1 ? 'them' : 'it'})`,
    );
}
