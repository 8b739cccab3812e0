/**
 * `tollgate migrate --to 10.1` on real Tomcat (issue 30): every base of migrate-bases.ts starts on
 * Tomcat 9.0.70 with all its connectors and contexts up, is refused in part or whole by Tomcat 10.1,
 * and after `tollgate migrate --to 10.1 --write` starts on 10.1 with the same connectors and contexts
 * up and no property 10.1 failed to set. Three Tomcat starts per base, at most two at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { MIGRATE_BASES, type MigrateBase } from './migrate-bases.js';
import {
  makeKeys,
  startAndCheck,
  tomcatVersionMissing,
  writeBase,
  type Keys,
  type StartReport,
} from './migrate-tomcat.js';

let root = '';
let keys: Keys;

beforeAll(() => {
  const missing = tomcatVersionMissing('9.0') ?? tomcatVersionMissing('10.1');
  if (missing) throw new Error(missing);
  root = mkdtempSync(join(tmpdir(), 'tollgate-migrate-conformance-'));
  keys = makeKeys(join(root, 'keys'));
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The lines of a Tomcat log worth showing when an expectation fails. */
function problems(r: StartReport): string {
  return r.log
    .split('\n')
    .filter((l) => /SEVERE|WARNING|Caused by|Exception:/.test(l) && !/ClassLoaderFactory|add-opens/.test(l))
    .slice(0, 30)
    .join('\n');
}

const allUp = (r: StartReport): boolean =>
  r.started && Object.values(r.connectors).every(Boolean) && Object.values(r.contexts).every(Boolean);

async function migrate(dir: string): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(['migrate', dir, '--to', '10.1', '--write'], {
    stdout: () => undefined,
    stderr: (t) => (err += t),
    cwd: dir,
  });
  return { code, err };
}

describe('tollgate migrate --to 10.1 on real Tomcat 9.0.70 and 10.1', () => {
  it.each(MIGRATE_BASES.map((b) => [b.name, b] as const))(
    '%s: starts on 9.0, is refused by 10.1, and starts whole on 10.1 after migrate --write',
    async (_name: string, def: MigrateBase) => {
      const dir = join(root, def.name);
      // Each start has its own ports: two Tomcats run at once, and a port still closing must not be reused.
      const p9 = await writeBase(def, `${dir}-9`, keys);
      const p10 = await writeBase(def, `${dir}-10`, keys);

      const [on9, on10] = await Promise.all([
        startAndCheck('9.0', `${dir}-9`, def, p9),
        startAndCheck('10.1', `${dir}-10`, def, p10),
      ]);
      expect(on9.version, on9.log.slice(-3000)).toMatch(/^9\.0\.70\./);
      expect(allUp(on9), `Tomcat 9.0 ${JSON.stringify(on9)}\n${problems(on9)}`).toBe(true);
      expect(on10.version).toMatch(/^10\.1\./);
      expect(allUp(on10), `Tomcat 10.1 took this base as it is:\n${problems(on10)}`).toBe(false);

      const pAfter = await writeBase(def, `${dir}-after`, keys);
      const m = await migrate(`${dir}-after`);
      expect(m.code, m.err).toBe(0);

      const after = await startAndCheck('10.1', `${dir}-after`, def, pAfter);
      expect(
        { started: after.started, connectors: after.connectors, contexts: after.contexts },
        `after migrate:\n${m.err}\n${problems(after)}`,
      ).toEqual({ started: true, connectors: on9.connectors, contexts: on9.contexts });
      // Nothing 10.1 does not know is left behind.
      expect(after.log, problems(after)).not.toMatch(/failed to set property/);
    },
    600_000,
  );
});
