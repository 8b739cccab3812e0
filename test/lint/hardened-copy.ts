import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const HARDENED = join(import.meta.dirname, '..', 'fixtures', 'hardening', 'hardened');

/** The name of an id in /etc/passwd or /etc/group (the file rules compare names). */
function nameOf(file: string, id: number): string {
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.split(':')[2] === String(id));
  return line ? line.split(':')[0]! : String(id);
}

/** The account names of whoever runs the tests: what a copy made here is owned by. */
export function ownAccounts(): { admin: string; service: string; group: string } {
  const user = nameOf('/etc/passwd', process.getuid!());
  return { admin: user, service: user, group: nameOf('/etc/group', process.getgid!()) };
}

/**
 * A copy of the hardened fixture laid out on disk as the benchmarks ask (git keeps no modes): folders
 * 750, conf/ files 600 and web.xml 400 (CIS; within the STIG's 640), logs/, temp/ and work/ present,
 * a keystore at the path server.xml names, and a tollgate.config.json naming the accounts that own it.
 */
export function hardenedCopy(): { dir: string; accounts: ReturnType<typeof ownAccounts> } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-hardened-'));
  cpSync(HARDENED, dir, { recursive: true });
  for (const d of ['logs', 'temp', 'work']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'conf', 'keystore.p12'), 'not read: only its mode and owner are judged');
  const accounts = ownAccounts();
  writeFileSync(join(dir, 'tollgate.config.json'), JSON.stringify({ accounts }));
  const walk = (d: string): void => {
    chmodSync(d, 0o750);
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else chmodSync(p, d === join(dir, 'conf') ? (e === 'web.xml' ? 0o400 : 0o600) : 0o640);
    }
  };
  walk(dir);
  return { dir, accounts };
}
