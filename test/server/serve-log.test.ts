/**
 * serve's log (src/server/serve-log.ts): every line with its ISO-8601 time and level, `--log-format
 * json` as one object per line, conf/logging.properties' levels as Tomcat's JULI reads them, and the
 * lint report at start in one line. The end-to-end cases run the built CLI (`serve --workers 2`).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { parsePropertiesFile } from '../../src/parser/properties-file.js';
import { formatJsonRecord, readLoggingProperties } from '../../src/server/serve-log.js';
import { makeBase, serverXml } from './harness.js';
import { waitFor } from './http.js';
import { startServe, stopServes } from './serve-process.js';

const dirs: string[] = [];
afterEach(async () => {
  await stopServes();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The lines of Tomcat 10.1's conf/logging.properties that set levels and handlers. */
const TOMCAT_LOGGING = `handlers = 1catalina.org.apache.juli.AsyncFileHandler, 2localhost.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler
.handlers = 1catalina.org.apache.juli.AsyncFileHandler, java.util.logging.ConsoleHandler
1catalina.org.apache.juli.AsyncFileHandler.level = FINE
2localhost.org.apache.juli.AsyncFileHandler.level = FINE
java.util.logging.ConsoleHandler.level = FINE
org.apache.catalina.core.ContainerBase.[Catalina].[localhost].level = INFO
org.apache.catalina.core.ContainerBase.[Catalina].[localhost].handlers = 2localhost.org.apache.juli.AsyncFileHandler
`;

function juli(text: string) {
  return readLoggingProperties(parsePropertiesFile(text, '/b/conf/logging.properties').properties);
}

describe('conf/logging.properties as JULI reads it', () => {
  it("Tomcat's own file: the root at INFO (JULI's default), its handlers take FINE", () => {
    const j = juli(TOMCAT_LOGGING);
    expect(j.loggers.get('')).toBeUndefined();
    expect(j.loggers.get('org.apache.catalina.core.ContainerBase.[Catalina].[localhost]')).toBe('INFO');
    expect(j.handlerLevel('org.apache.catalina.realm.LockOutRealm')).toBe('FINE');
    expect(j.problems).toEqual([]);
  });

  it('.level, a logger level, handler levels, .handlers and useParentHandlers', () => {
    const j = juli(`handlers = 1catalina.org.apache.juli.FileHandler, java.util.logging.ConsoleHandler
.handlers = java.util.logging.ConsoleHandler
.level = WARNING
org.apache.catalina.realm.level = FINE
org.apache.catalina.realm.LockOutRealm.handlers = 1catalina.org.apache.juli.FileHandler
org.apache.catalina.realm.LockOutRealm.useParentHandlers = false
tollgate.serve.handlers = 1catalina.org.apache.juli.FileHandler
`);
    expect(j.loggers.get('')).toBe('WARNING');
    expect(j.loggers.get('org.apache.catalina.realm')).toBe('FINE');
    // ConsoleHandler's default level is INFO; JULI's FileHandler's is ALL.
    expect(j.handlerLevel('org.apache.catalina.startup.Catalina')).toBe('INFO');
    expect(j.handlerLevel('org.apache.catalina.realm.LockOutRealm')).toBe('ALL');
    expect(j.handlerLevel('tollgate.serve.cluster')).toBe('ALL');
  });

  it('no handler reached: nothing is written; an unknown level is ignored with its place', () => {
    const j = juli(`handlers = java.util.logging.ConsoleHandler
.handlers =
.level = LOUD
`);
    expect(j.handlerLevel('tollgate.serve')).toBe('OFF');
    expect(j.loggers.has('')).toBe(false);
    expect(j.problems).toEqual([
      '/b/conf/logging.properties:3:10: .level = LOUD is not a level; JULI ignores it (use SEVERE, WARNING, INFO, CONFIG, FINE, FINER, FINEST, OFF or ALL)',
    ]);
  });

  it('a JSON line has time, level, logger, message and fields', () => {
    const line = formatJsonRecord(
      { time: Date.UTC(2026, 10, 29, 7, 0, 0, 5), level: 'SEVERE', logger: 'tollgate.serve', message: 'x "y"' },
      { worker: 2, pid: 4711 },
    );
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({
      time: '2026-11-29T07:00:00.005Z',
      level: 'SEVERE',
      logger: 'tollgate.serve',
      message: 'x "y"',
      fields: { worker: 2, pid: 4711 },
    });
  });
});

describe('serve --log-format', () => {
  it('an unknown format is refused by the CLI', async () => {
    let err = '';
    const code = await main(['serve', '--base', '.', '--log-format', 'xml'], {
      stdout: () => undefined,
      stderr: (t) => (err += t),
      cwd: process.cwd(),
    });
    expect(code).toBe(2);
    expect(err).toMatch(/--log-format "xml": write text or json/);
  });

  const TIME_LEVEL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (SEVERE|WARNING|INFO|CONFIG|FINE|FINER|FINEST) \[/;

  it('text: every line of the primary and its workers has its time and level; the lint report is one line', async () => {
    const base = makeBase(serverXml());
    dirs.push(base);
    const s = await startServe(base, ['--workers', '2']);
    process.kill(s.child.pid!, 'SIGTERM');
    await s.exited;
    const lines = (s.out() + s.err()).split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(4);
    for (const l of lines) expect(l).toMatch(TIME_LEVEL);
    const lint = lines.filter((l) => l.includes('lint found'));
    expect(lint).toHaveLength(1);
    expect(lint[0]).toMatch(
      /INFO \[org\.apache\.catalina\.startup\.Catalina\] tollgate serve: lint found \d+ error\(s\) and \d+ warning\(s\); run `tollgate lint .*` for the report$/,
    );
    expect(s.out()).toMatch(/INFO \[org\.apache\.catalina\.startup\.Catalina\] tollgate serve: stopped/);
  }, 180_000);

  it('json with logging.properties: one object per line; .level WARNING silences INFO but the Catalina logger set to INFO', async () => {
    const base = makeBase(serverXml());
    dirs.push(base);
    writeFileSync(
      join(base, 'conf', 'logging.properties'),
      `handlers = java.util.logging.ConsoleHandler
java.util.logging.ConsoleHandler.level = FINE
.level = WARNING
org.apache.catalina.startup.Catalina.level = INFO
`,
    );
    const s = await startServe(base, ['--workers', '2', '--log-format', 'json']);
    // A worker killed: a WARNING line in the primary's log (kept), while its INFO lines are not written.
    const pid = Number(/pids (\d+),/.exec(s.out())![1]);
    process.kill(pid, 'SIGKILL');
    await waitFor(
      () => /exited with signal SIGKILL/.test(s.err()),
      60_000,
      () => s.err(),
    );
    process.kill(s.child.pid!, 'SIGTERM');
    await s.exited;
    const records = (s.out() + s.err())
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) {
      expect(Object.keys(r)).toEqual(['time', 'level', 'logger', 'message', 'fields']);
      expect(r['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const infoNotCatalina = records.filter(
      (r) => r['level'] === 'INFO' && r['logger'] !== 'org.apache.catalina.startup.Catalina',
    );
    expect(infoNotCatalina).toEqual([]);
    expect(records.some((r) => r['level'] === 'WARNING' && r['logger'] === 'tollgate.serve.cluster')).toBe(true);
    expect(records.some((r) => String(r['message']).startsWith('listening on http://127.0.0.1:'))).toBe(true);
    expect(
      records.at(-1)?.['message'] === 'tollgate serve: stopped' || s.out().includes('tollgate serve: stopped'),
    ).toBe(true);
  }, 180_000);
});
