/**
 * The short version of bench/connections.ts: 500 concurrent keep-alive
 * connections to the served example (in a child process), each used every
 * second or so for a few seconds. None may be refused, reset or left
 * unanswered, and the server must still serve a new client at the peak and
 * after they leave.
 */
import { describe, expect, it } from 'vitest';
import { runConnections } from '../../bench/connections.js';

describe('500 concurrent connections to the served example', () => {
  it('are all opened, held, answered 200 and released', async () => {
    const r = await runConnections({ connections: 500, holdSeconds: 4, clients: 1, everySeconds: 1 });
    expect(r.childExit).toBeNull();
    expect(r.connectErrors).toEqual({});
    expect(r.opened).toBe(500);
    expect(r.heldToEnd).toBe(500);
    expect(r.unexpectedCloses).toBe(0);
    expect(r.serverConnectionsAtPeak).toBeGreaterThanOrEqual(500);
    // Every request sent got its answer, and every answer was a 200.
    expect(r.statuses).toEqual({ '200': r.requests });
    expect(r.requests).toBeGreaterThanOrEqual(1000);
    expect(r.probeAtPeak).toBe(200);
    expect(r.probeAfter).toBe(200);
    // What the connections cost is given back once they are gone.
    expect(r.heapMB.afterClose).toBeLessThan(r.heapMB.start + 8);
  });
});
