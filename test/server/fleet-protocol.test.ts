/**
 * src/server/fleet.ts in process, over an in-memory channel standing in for Redis pub/sub: a command
 * applied here goes to the other instances and the answer waits for theirs; a channel that is down
 * refuses with nothing applied; a publish that fails takes the local change back.
 * (test/server/fleet.test.ts runs the real thing: HAProxy, two serve clusters, Redis.)
 */
import { describe, expect, it } from 'vitest';
import type { HostCommand } from '../../src/server/cluster-channel.js';
import { Fleet, FleetUnreachableError, type FleetChannel, type FleetCommand } from '../../src/server/fleet.js';
import type { HostResult, VirtualHost } from '../../src/server/hosts.js';
import { setLogSink } from '../../src/runtime/index.js';

/** Delivers every published message to every subscribed fleet, asynchronously, as Redis does. */
class Bus {
  readonly members: Fleet[] = [];
  up = true;
  failPublish = false;
  channel(): FleetChannel {
    return {
      get ready() {
        return bus.up;
      },
      publish: async (message: string) => {
        if (this.failPublish) throw new Error('Redis did not answer within 2000 ms');
        for (const m of this.members) setImmediate(() => m.receive(message));
        return this.members.length;
      },
    };
  }
  join(store = 'redis://127.0.0.1:6379'): { fleet: Fleet; applied: FleetCommand[] } {
    const fleet = new Fleet(store);
    const applied: FleetCommand[] = [];
    fleet.connect(this.channel());
    fleet.applyWith(async (c) => {
      applied.push(c);
      return { ok: true };
    });
    this.members.push(fleet);
    return { fleet, applied };
  }
}
let bus: Bus;

const host = { name: 'new.example' } as VirtualHost;
const add: HostCommand = {
  op: 'add',
  input: {
    name: 'new.example',
    aliases: null,
    appBase: null,
    manager: false,
    autoDeploy: true,
    deployOnStartup: true,
    deployXML: true,
    unpackWARs: true,
    copyXML: false,
  },
  policy: { allowAppBaseOutsideBase: false },
};

function quiet(): () => void {
  setLogSink(() => undefined);
  return () => setLogSink(null);
}

describe('host-manager changes across a fleet', () => {
  it('applies a command here, then on every other instance, and answers once they have', async () => {
    const restore = quiet();
    try {
      bus = new Bus();
      const a = bus.join();
      const b = bus.join();
      const c = bus.join();
      let here = 0;
      const result = await a.fleet.run(
        add,
        async () => {
          here++;
          return { ok: true, host } as HostResult;
        },
        async () => undefined,
      );
      expect(result.ok).toBe(true);
      expect(here).toBe(1);
      // Answered after both others applied it; the sender does not apply its own message again.
      expect(b.applied).toEqual([add]);
      expect(c.applied).toEqual([add]);
      expect(a.applied).toEqual([]);
      await a.fleet.persist(async () => undefined);
      expect(b.applied).toEqual([add, { op: 'persist' }]);
    } finally {
      restore();
    }
  });

  it('refuses, with nothing applied anywhere, while the channel is down', async () => {
    const restore = quiet();
    try {
      bus = new Bus();
      const a = bus.join();
      const b = bus.join();
      bus.up = false;
      let here = 0;
      const result = await a.fleet.run(
        add,
        async () => {
          here++;
          return { ok: true, host } as HostResult;
        },
        async () => undefined,
      );
      expect(result).toEqual({
        ok: false,
        failure: {
          code: 'fleet-unreachable',
          message:
            '[add] was not applied: the instances sharing the state store [redis://127.0.0.1:6379] cannot be told of it (Redis does not answer), and a change on this instance alone would make them serve different hosts. Try again once Redis answers',
        },
      });
      expect(here).toBe(0);
      expect(b.applied).toEqual([]);
      await expect(a.fleet.persist(async () => undefined)).rejects.toBeInstanceOf(FleetUnreachableError);
    } finally {
      restore();
    }
  });

  it('takes the change back here when the publish fails after it was applied', async () => {
    const restore = quiet();
    try {
      bus = new Bus();
      const a = bus.join();
      bus.join();
      bus.failPublish = true;
      const undone: HostCommand[] = [];
      const result = await a.fleet.run(
        add,
        async () => ({ ok: true, host }) as HostResult,
        async (c) => void undone.push(c),
      );
      expect(undone).toEqual([{ op: 'remove', name: 'new.example' }]);
      expect(result.ok).toBe(false);
      expect(!result.ok && result.failure).toEqual({
        code: 'fleet-unreachable',
        message:
          '[add] was not applied: the instances sharing the state store [redis://127.0.0.1:6379] could not be told of it (Redis did not answer within 2000 ms), so it was taken back here',
      });
    } finally {
      restore();
    }
  });

  it('does not publish a command this instance refused', async () => {
    const restore = quiet();
    try {
      bus = new Bus();
      const a = bus.join();
      const b = bus.join();
      const result = await a.fleet.run(
        add,
        async () => ({ ok: false, failure: { code: 'exists' } }) as HostResult,
        async () => undefined,
      );
      expect(result).toEqual({ ok: false, failure: { code: 'exists' } });
      await new Promise((r) => setImmediate(r));
      expect(b.applied).toEqual([]);
    } finally {
      restore();
    }
  });
});
