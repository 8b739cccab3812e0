/**
 * Child process for the crash test: flips the hosts of a base between two
 * sets and persists after every flip, forever, until it is killed.
 * Usage: TOLLGATE_PERSIST_CHILD=1 node --import tsx persist-child.ts <base>
 */
import { join } from 'node:path';
import { loadBase } from '../../src/parser/index.js';
import { HostRegistry } from '../../src/server/hosts.js';
import { createServerXmlPersister } from '../../src/server/persist.js';

export const SET_A = ['a1.example'];
export const SET_B = ['b1.example', 'b2.example'];

async function main(base: string): Promise<void> {
  const registry = HostRegistry.fromBase(loadBase({ base }));
  const persister = createServerXmlPersister({ registry, file: join(base, 'conf', 'server.xml') });
  let toB = registry.get(SET_A[0]!) !== undefined;
  for (;;) {
    const [from, to] = toB ? [SET_A, SET_B] : [SET_B, SET_A];
    for (const n of from) await registry.remove(n);
    for (const n of to) await registry.add({ name: n });
    await persister.persist();
    process.stdout.write('p');
    toB = !toB;
  }
}

if (process.env['TOLLGATE_PERSIST_CHILD'] === '1' && process.argv[2] !== undefined) void main(process.argv[2]);
