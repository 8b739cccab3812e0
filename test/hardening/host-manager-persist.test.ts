/**
 * kill -9 at random moments while a child process persists host changes
 * over and over (test/server/persist-child.ts flips the hosts between two
 * sets and persists after each flip). After every kill, conf/server.xml must
 * parse without an error and hold exactly one of the two sets, and over the
 * rounds both sets must have been seen: a test that only ever saw one
 * outcome would not show that the file is replaced whole.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBase, parseServerXml } from '../../src/parser/index.js';
import { HostRegistry } from '../../src/server/hosts.js';
import { makeBase, serverXml } from '../server/harness.js';

const SET_A = ['a1.example', 'localhost'];
const SET_B = ['b1.example', 'b2.example', 'localhost'];
const CHILD = fileURLToPath(new URL('../server/persist-child.ts', import.meta.url));

function hostsOf(xml: string): string[] {
  const { serverXml: s, diagnostics } = parseServerXml(xml, 'server.xml', {});
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return s!.services[0]!.engine!.hosts.map((h) => h.name.value).sort();
}

describe('persist under kill -9', () => {
  it('every kill leaves a server.xml that parses and holds the old or the new hosts, and both outcomes occur', async () => {
    const base = makeBase(
      serverXml({ storeConfig: true, extraHosts: '      <Host name="a1.example" appBase="a1.example"/>\n' }),
    );
    const file = join(base, 'conf', 'server.xml');
    const seen = { a: 0, b: 0 };
    let rounds = 0;
    try {
      while ((seen.a < 2 || seen.b < 2) && rounds < 40) {
        rounds++;
        const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, base], {
          env: { ...process.env, TOLLGATE_PERSIST_CHILD: '1' },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let persists = 0;
        proc.stdout.on('data', (d: Buffer) => (persists += d.length));
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          proc.once('exit', (_code, signal) => resolve(signal)),
        );
        // Wait for a first persist, so the child is inside its loop, then kill it at a random moment of it.
        await new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
        await new Promise((r) => setTimeout(r, 3 + Math.floor(Math.random() * 80)));
        expect(proc.kill('SIGKILL')).toBe(true);
        expect(await exited).toBe('SIGKILL');
        expect(persists).toBeGreaterThanOrEqual(1);

        const names = hostsOf(readFileSync(file, 'utf8'));
        expect([SET_A, SET_B]).toContainEqual(names);
        if (names.join() === SET_A.join()) seen.a++;
        else seen.b++;
      }
      expect(seen.a).toBeGreaterThanOrEqual(2);
      expect(seen.b).toBeGreaterThanOrEqual(2);

      // Every backup is a whole file too (a hard link to a former server.xml).
      const backups = readdirSync(join(base, 'conf')).filter((n) => /^server\.xml\.\d{4}-/.test(n));
      expect(backups.length).toBeGreaterThan(0);
      for (const b of backups)
        expect([SET_A, SET_B]).toContainEqual(hostsOf(readFileSync(join(base, 'conf', b), 'utf8')));
      // A torn temporary file a kill may leave behind is never what the server reads.
      const reloaded = HostRegistry.fromBase(loadBase({ base }));
      expect([SET_A, SET_B]).toContainEqual(
        reloaded
          .list()
          .map((h) => h.name)
          .sort(),
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
