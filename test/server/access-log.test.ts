/**
 * AccessLogValve in `tollgate serve`: the valves of the Engine, a Host and a
 * context file each get the requests Tomcat's containers give them, in
 * AbstractAccessLogValve's formats; the file is named, rotated and flushed as
 * AccessLogValve does. (test/conformance/access-log.conformance.test.ts
 * compares the lines with real Tomcat's.)
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigElement } from '../../src/model/index.js';
import {
  AccessLog,
  accessLogSettings,
  commonLogTime,
  compilePattern,
  escapeValue,
  type AccessLogSettings,
  type LoggedRequest,
} from '../../src/server/access-log.js';
import { startContainer, type Container } from '../../src/server/container.js';
import { simpleDateFormatter, simpleDateFormatProblem } from '../../src/server/simple-date-format.js';
import { makeBase } from './harness.js';
import { ask } from './http.js';

const dirs: string[] = [];
const containers: Container[] = [];
afterEach(async () => {
  for (const c of containers.splice(0)) await c.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function valve(attrs: Record<string, string>): ConfigElement {
  const span = { file: 'server.xml', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };
  const attributes: ConfigElement['attributes'] = {};
  for (const [k, v] of Object.entries(attrs)) attributes[k] = { value: v, span };
  return {
    tag: 'Valve',
    className: { value: 'org.apache.catalina.valves.AccessLogValve', span },
    attributes,
    children: [],
    span,
  };
}

const xml = (engineValve: string, hostValve: string): string => `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <GlobalNamingResources>
    <Resource name="UserDatabase" auth="Container" type="org.apache.catalina.UserDatabase"
              factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/tomcat-users.xml" />
  </GlobalNamingResources>
  <Service name="Catalina">
    <Connector port="8080" protocol="HTTP/1.1"/>
    <Engine name="Catalina" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/>
      ${engineValve}
      <Host name="localhost" appBase="webapps">
        ${hostValve}
      </Host>
    </Engine>
  </Service>
</Server>
`;

async function start(engineValve: string, hostValve: string, contextFile?: string): Promise<Container> {
  const base = makeBase(xml(engineValve, hostValve));
  dirs.push(base);
  mkdirSync(join(base, 'webapps', 'app'), { recursive: true });
  writeFileSync(join(base, 'webapps', 'app', 'a.txt'), 'twelve bytes');
  if (contextFile !== undefined) {
    mkdirSync(join(base, 'conf', 'Catalina', 'localhost'), { recursive: true });
    writeFileSync(join(base, 'conf', 'Catalina', 'localhost', 'app.xml'), contextFile);
  }
  const c = await startContainer({ base, port: 0, log: () => {} });
  containers.push(c);
  return c;
}

function logFiles(base: string): Record<string, string[]> {
  const dir = join(base, 'logs');
  const out: Record<string, string[]> = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)) out[f] = readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean);
  return out;
}

const TODAY = simpleDateFormatter('.yyyy-MM-dd')(new Date());
const CLF_TIME = /^\[\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]$/;

describe('AccessLogValve lines', () => {
  it('writes common to the host log, a custom pattern to the engine log and a context valve only for its context', async () => {
    const c = await start(
      '<Valve className="org.apache.catalina.valves.AccessLogValve" prefix="engine" suffix=".log" pattern="%a|%m|%U|%q|%H|%s|%B|%v|%p|%{X-Test}i|%{Content-Type}o|%{k}c|%l|%X"/>',
      '<Valve className="org.apache.catalina.valves.AccessLogValve" directory="logs" prefix="localhost_access_log" suffix=".txt" pattern="common"/>',
      '<Context><Valve className="org.apache.catalina.valves.AccessLogValve" prefix="app" rotatable="false" pattern="%r %s %b"/></Context>',
    );
    await ask(c.port, '/app/a.txt?x=1&y', { headers: { 'x-test': 'say "hi"\\ é', cookie: 'k=v1; o=2; k=v2' } });
    await ask(c.port, '/app/missing');
    await ask(c.port, '/app/a.txt', { method: 'HEAD' });
    await ask(c.port, '/other', { headers: { host: 'example.com:8081' } });
    await ask(c.port, '/host-manager/text/list', { auth: 'nobody:wrong' });
    await c.stop();
    containers.length = 0;
    const files = logFiles(c.base.base);
    expect(Object.keys(files).sort()).toEqual(['app', `engine${TODAY}.log`, `localhost_access_log${TODAY}.txt`].sort());

    const host = files[`localhost_access_log${TODAY}.txt`]!;
    expect(host).toHaveLength(5);
    const fields = host.map((l) => /^(\S+) (\S+) (\S+) (\[[^\]]+\]) "([^"]*)" (\d+) (\S+)$/.exec(l)!.slice(1));
    for (const f of fields) {
      expect(f[0]).toBe('127.0.0.1');
      expect(f[3]).toMatch(CLF_TIME);
    }
    expect(fields.map((f) => [f[4], f[5], f[6]])).toEqual([
      ['GET /app/a.txt?x=1&y HTTP/1.1', '200', '12'],
      ['GET /app/missing HTTP/1.1', '404', expect.stringMatching(/^\d+$/)],
      ['HEAD /app/a.txt HTTP/1.1', '200', '-'],
      ['GET /other HTTP/1.1', '404', expect.stringMatching(/^\d+$/)],
      ['GET /host-manager/text/list HTTP/1.1', '401', expect.stringMatching(/^\d+$/)],
    ]);

    expect(files['app']).toEqual([
      'GET /app/a.txt?x=1&y HTTP/1.1 200 12',
      expect.stringMatching(/^GET \/app\/missing HTTP\/1.1 404 \d+$/),
      'HEAD /app/a.txt HTTP/1.1 200 -',
    ]);

    const engine = files[`engine${TODAY}.log`]!;
    expect(engine[0]).toBe(
      `127.0.0.1|GET|/app/a.txt|?x=1&y|HTTP/1.1|200|12|127.0.0.1|${c.port}|say \\"hi\\"\\\\ \\u00e9|-|v1,v2|-|+`,
    );
    expect(engine[3]).toMatch(
      /^127\.0\.0\.1\|GET\|\/other\|-\|HTTP\/1\.1\|404\|\d+\|example\.com\|8081\|-\|text\/html;charset=utf-8\|-\|-\|\+$/,
    );
  });

  it('logs the host manager user (%u) once authenticated, even when the role check refuses', async () => {
    const c = await start('', '<Valve className="org.apache.catalina.valves.AccessLogValve" pattern="%u %s"/>');
    await ask(c.port, '/host-manager/text/list', { auth: 'admin:s3cret' });
    await ask(c.port, '/host-manager/text/list', { auth: 'gui:s3cret' });
    await ask(c.port, '/host-manager/text/list', { auth: 'gui:wrong' });
    await c.stop();
    containers.length = 0;
    // Without prefix and suffix: access_log plus the date stamp, in logs/.
    expect(logFiles(c.base.base)[`access_log${TODAY}`]).toEqual(['admin 200', 'gui 403', '- 401']);
  });

  it('honours conditionIf / conditionUnless, enabled="false" and buffered="false"', async () => {
    const c = await start(
      '<Valve className="org.apache.catalina.valves.AccessLogValve" prefix="off" enabled="false" pattern="%s"/>',
      '<Valve className="org.apache.catalina.valves.AccessLogValve" prefix="now" buffered="false" rotatable="false" pattern="%U"/>',
    );
    await ask(c.port, '/app/a.txt');
    // Unbuffered: the line is in the file before the container stops.
    expect(readFileSync(join(c.base.base, 'logs', 'now'), 'utf8')).toBe('/app/a.txt\n');
    await c.stop();
    containers.length = 0;
    expect(existsSync(join(c.base.base, 'logs', `off${TODAY}`))).toBe(false);
  });
});

describe('the pattern as AbstractAccessLogValve reads it', () => {
  const request = (over: Partial<LoggedRequest> = {}): LoggedRequest =>
    ({
      req: { method: 'GET', url: '/p?q', httpVersion: '1.0', headers: {}, rawHeaders: [], socket: {} },
      res: { statusCode: 302, getHeader: () => undefined, writableFinished: true },
      startMs: Date.UTC(2024, 0, 2, 3, 4, 5, 67),
      startNs: 0n,
      committedNs: 2_000_000n,
      bytes: 0,
      remoteAddr: '10.0.0.1',
      remotePort: 5555,
      localPort: 8080,
      connectionId: '7',
      user: null,
      headList: null,
      host: null,
      context: null,
      ...over,
    }) as unknown as LoggedRequest;
  const format = (pattern: string, r = request(), end = 1_234_567_891n): string =>
    compilePattern(accessLogSettings(valve({ pattern }), '/b')!)(r, end);

  it('expands the aliases and the time codes', () => {
    expect(format('common')).toMatch(
      /^10\.0\.0\.1 - - \[02\/Jan\/2024:\d\d:04:05 [+-]\d{4}\] "GET \/p\?q HTTP\/1\.0" 302 -$/,
    );
    expect(format('%D %T %{ms}T %{us}T %{ns}T %{fracsec}T %F')).toBe('1234567 1 1234 1234567 1234567891 1.234 2');
    expect(format('%{begin:sec}t %{msec}t %{begin:msec_frac}t')).toBe('1704164645 1704164646301 067');
    expect(format('%{remote}p %{local}p %{peer}a %{c}L %{x}L %S %I')).toBe(
      `5555 8080 10.0.0.1 7 ??? - node-${process.pid}`,
    );
  });

  it('treats unknown codes, %% and an unclosed brace as Tomcat does', () => {
    expect(format('%Z %% %{abc')).toBe('???Z??? ???%??? ???{???abc');
    expect(format('%{x}Z')).toBe('???');
    expect(format('')).toBe('');
  });

  it('reads the attributes with their defaults', () => {
    const s: AccessLogSettings = accessLogSettings(valve({}), '/base')!;
    expect(s).toMatchObject({
      pattern: '',
      directory: '/base/logs',
      prefix: 'access_log',
      suffix: '',
      fileDateFormat: '.yyyy-MM-dd',
      rotatable: true,
      buffered: true,
      requestAttributesEnabled: false,
    });
    expect(accessLogSettings(valve({ pattern: 'combined', directory: '/var/log/x' }), '/base')).toMatchObject({
      pattern: '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i"',
      directory: '/var/log/x',
    });
  });

  it('escapes as httpd does, with \\u for non-ASCII', () => {
    expect(escapeValue('')).toBe('-');
    expect(escapeValue('a"b\\c\n\r\t\f\u0001ü')).toBe('a\\"b\\\\c\\n\\r\\t\\f\\u0001\\u00fc');
    expect(escapeValue('plain')).toBe('plain');
  });

  it('formats SimpleDateFormat patterns and refuses the ones Java refuses', () => {
    const d = new Date(2024, 0, 2, 15, 4, 5, 7);
    expect(simpleDateFormatter("yyyy-MM-dd'T'HH:mm:ss.SSS EEE MMM MMMM yy h a ''")(d)).toBe(
      "2024-01-02T15:04:05.007 Tue Jan January 24 3 PM '",
    );
    expect(simpleDateFormatter("'o''clock' D")(d)).toBe("o'clock 2");
    expect(simpleDateFormatProblem('yyyy-bb')).toBe("Illegal pattern character 'b'");
    expect(simpleDateFormatProblem("'open")).toMatch(/Unterminated quote/);
    expect(commonLogTime(d.getTime())).toMatch(/^\[02\/Jan\/2024:15:04:05 [+-]\d{4}\]$/);
  });
});

describe('the log file', () => {
  it('rotates by the date stamp and keeps what was buffered across the change', () => {
    const dir = join(makeBase(xml('', '')), 'rot');
    dirs.push(dir);
    let now = Date.UTC(2024, 0, 1, 12);
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const log = new AccessLog(
        {
          ...accessLogSettings(
            valve({ pattern: '%U', directory: dir, fileDateFormat: 'yyyyMMddHH', prefix: 'a.' }),
            '/',
          )!,
        },
        () => {},
      );
      const r = (url: string) =>
        ({
          req: { method: 'GET', url, httpVersion: '1.1', headers: {}, rawHeaders: [] },
          res: {},
          startNs: 0n,
        }) as unknown as LoggedRequest;
      log.log(r('/one'), 0n);
      now += 3_600_000;
      log.log(r('/two'), 0n);
      log.close();
      const stamp = simpleDateFormatter('yyyyMMddHH');
      expect(readFileSync(join(dir, `a.${stamp(new Date(Date.UTC(2024, 0, 1, 12)))}`), 'utf8')).toBe('/one\n');
      expect(readFileSync(join(dir, `a.${stamp(new Date(Date.UTC(2024, 0, 1, 13)))}`), 'utf8')).toBe('/two\n');
    } finally {
      Date.now = realNow;
    }
  });

  it('renameOnRotate writes to prefix+suffix and renames it with the finished date stamp', () => {
    const dir = join(makeBase(xml('', '')), 'ren');
    dirs.push(dir);
    let now = Date.UTC(2024, 0, 1, 12);
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const log = new AccessLog(
        accessLogSettings(
          valve({
            pattern: '%U',
            directory: dir,
            fileDateFormat: 'yyyyMMddHH',
            prefix: 'r',
            suffix: '.log',
            renameOnRotate: 'true',
          }),
          '/',
        )!,
        () => {},
      );
      const r = (url: string) =>
        ({
          req: { method: 'GET', url, httpVersion: '1.1', headers: {}, rawHeaders: [] },
          res: {},
          startNs: 0n,
        }) as unknown as LoggedRequest;
      log.log(r('/one'), 0n);
      now += 3_600_000;
      log.log(r('/two'), 0n);
      log.close();
      const stamp = simpleDateFormatter('yyyyMMddHH')(new Date(Date.UTC(2024, 0, 1, 12)));
      expect(readFileSync(join(dir, `r${stamp}.log`), 'utf8')).toBe('/one\n');
      expect(readFileSync(join(dir, 'r.log'), 'utf8')).toBe('/two\n');
    } finally {
      Date.now = realNow;
    }
  });
});
