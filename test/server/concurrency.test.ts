import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServerXml } from '../../src/parser/index.js';
import { makeBase, serverXml, startContainer } from './harness.js';
import { ask } from './http.js';

const ADMIN = 'admin:s3cret';

describe('host manager under concurrency', () => {
  it('100 concurrent add/remove/list requests with a persist among them never lose or duplicate a host', async () => {
    const c = await startContainer(makeBase(serverXml({ storeConfig: true })));
    try {
      // Every state the registry passes through, recorded on its queue.
      const key = (names: readonly string[]) => [...names].sort().join(' ');
      const history = new Set([key(c.registry.list().map((h) => h.name))]);
      c.registry.subscribe(() => void history.add(key(c.registry.list().map((h) => h.name))));

      const cmds: string[] = [];
      for (let i = 0; i < 40; i++) cmds.push(`add?name=h${i}.example`);
      for (let i = 0; i < 20; i++) cmds.push(`remove?name=h${i}.example`);
      for (let i = 0; i < 10; i++) cmds.push('add?name=dup.example');
      for (let i = 0; i < 29; i++) cmds.push('list');
      // Shuffle deterministically, then put the persist in the middle.
      for (let i = cmds.length - 1; i > 0; i--) {
        const j = (i * 7919) % (i + 1);
        [cmds[i], cmds[j]] = [cmds[j]!, cmds[i]!];
      }
      cmds.splice(50, 0, 'persist');
      expect(cmds).toHaveLength(100);

      const replies = await Promise.all(
        cmds.map((cmd) => ask(c.port, `/host-manager/text/${cmd}`, { auth: ADMIN }).then((r) => ({ cmd, r }))),
      );
      for (const { r } of replies) expect(r.status).toBe(200);

      const text = (cmd: string) => replies.filter((x) => x.cmd === cmd).map((x) => x.r.text);
      for (let i = 0; i < 40; i++)
        expect(text(`add?name=h${i}.example`)).toEqual([`OK - Host [h${i}.example] added\n`]);
      const dup = text('add?name=dup.example');
      expect(dup.filter((t) => t === 'OK - Host [dup.example] added\n')).toHaveLength(1);
      expect(dup.filter((t) => t === 'FAIL - Host already exists with host name [dup.example]\n')).toHaveLength(9);
      const removed = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const [t] = text(`remove?name=h${i}.example`);
        expect([`OK - Removed host [h${i}.example]\n`, `FAIL - Host name [h${i}.example] does not exist\n`]).toContain(
          t,
        );
        if (t!.startsWith('OK')) removed.add(`h${i}.example`);
      }

      const expected = [
        'localhost',
        'dup.example',
        ...Array.from({ length: 40 }, (_, i) => `h${i}.example`).filter((n) => !removed.has(n)),
      ];
      const final = c.registry.list().map((h) => h.name);
      expect(new Set(final).size).toBe(final.length);
      expect(key(final)).toBe(key(expected));

      for (const t of text('list')) {
        const lines = t.trimEnd().split('\n');
        expect(lines[0]).toBe('OK - Listed hosts');
        const names = lines.slice(1).map((l) => /^\[(.*)\]:\[.*\]$/.exec(l)![1]!);
        expect(new Set(names).size).toBe(names.length);
        expect(history.has(key(names))).toBe(true);
      }

      expect(text('persist')).toEqual(['OK - Configuration persisted\n']);
      const persisted = parseServerXml(readFileSync(join(c.base, 'conf', 'server.xml')), 'server.xml', {}).serverXml!;
      const persistedNames = persisted.services[0]!.engine!.hosts.map((h) => h.name.value);
      expect(new Set(persistedNames).size).toBe(persistedNames.length);
      expect(history.has(key(persistedNames))).toBe(true);
    } finally {
      await c.dispose();
    }
  });
});
