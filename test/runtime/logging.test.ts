import { afterEach, describe, expect, it } from 'vitest';
import { getLogger, setLogLevel, setLogSink, type LogRecord } from '../../src/runtime/index.js';

afterEach(() => {
  setLogSink(null);
  setLogLevel('', null);
  setLogLevel('org.apache.catalina.filters', null);
  setLogLevel('org.apache.catalina.filters.ExpiresFilter', null);
});

describe('runtime logging', () => {
  it('passes INFO and above by default and drops FINE and below', () => {
    const records: LogRecord[] = [];
    setLogSink((r) => records.push(r));
    const log = getLogger('org.apache.catalina.filters.ExpiresFilter');
    log.fine('hidden');
    log.config('hidden');
    log.info('shown');
    log.warning('shown too', new Error('why'));
    expect(records.map((r) => [r.level, r.logger, r.message])).toEqual([
      ['INFO', 'org.apache.catalina.filters.ExpiresFilter', 'shown'],
      ['WARNING', 'org.apache.catalina.filters.ExpiresFilter', 'shown too'],
    ]);
    expect(records[1]!.error).toBeInstanceOf(Error);
    expect(log.isLoggable('INFO')).toBe(true);
    expect(log.isLoggable('FINE')).toBe(false);
  });

  it('applies a level to a logger and its descendants, the nearest setting winning', () => {
    const expires = getLogger('org.apache.catalina.filters.ExpiresFilter');
    const cors = getLogger('org.apache.catalina.filters.CorsFilter');
    setLogLevel('org.apache.catalina.filters', 'FINE');
    expect([expires.isLoggable('FINE'), cors.isLoggable('FINE'), cors.isLoggable('FINER')]).toEqual([
      true,
      true,
      false,
    ]);
    setLogLevel('org.apache.catalina.filters.ExpiresFilter', 'SEVERE');
    expect([expires.isLoggable('WARNING'), cors.isLoggable('FINE')]).toEqual([false, true]);
    setLogLevel('org.apache.catalina.filters.ExpiresFilter', null);
    expect(expires.isLoggable('FINE')).toBe(true);
    setLogLevel('', 'OFF');
    expect(getLogger('tollgate.other').isLoggable('SEVERE')).toBe(false);
  });

  it('returns one logger per name and refuses unknown levels', () => {
    expect(getLogger('a.b')).toBe(getLogger('a.b'));
    expect(() => setLogLevel('a', 'DEBUG' as 'FINE')).toThrow(/unknown log level "DEBUG"/);
  });

  it('survives a sink that throws', () => {
    setLogSink(() => {
      throw new Error('disk full');
    });
    expect(() => getLogger('x').severe('still fine')).not.toThrow();
  });

  it('writes one line per record to stderr by default', () => {
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      getLogger('tollgate.test').warning('careful');
    } finally {
      process.stderr.write = original;
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z WARNING \[tollgate\.test\] careful\n$/);
  });
});
