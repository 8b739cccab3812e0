/**
 * Tomcat's AccessLogValve for `tollgate serve`: the valves of server.xml's
 * Engine and Hosts and of each context's file, their pattern read as
 * AbstractAccessLogValve.createLogElements reads it (every code, `%{name}i`-style
 * forms, `common` and `combined`, the same escaping), and their file as
 * AccessLogValve names, rotates and buffers it.
 *
 * Written lines stay in memory (`buffered`, Tomcat's default) until a
 * second has passed, 64 KiB are waiting, the date stamp changes or the
 * container stops (SIGTERM drains, then `close()` writes what is left), so a
 * stop never loses a line.
 */
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { lookup } from 'node:dns';
import { hostname } from 'node:os';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { isAbsolute, join, resolve } from 'node:path';
import type { ConfigElement } from '../model/index.js';
import { exchangeOf } from '../runtime/exchange.js';
import { simpleDateFormatter } from './simple-date-format.js';

export const ACCESS_LOG_VALVE = 'org.apache.catalina.valves.AccessLogValve';
export const EXTENDED_ACCESS_LOG_VALVE = 'org.apache.catalina.valves.ExtendedAccessLogValve';

const ALIASES: Record<string, string> = {
  common: '%h %l %u %t "%r" %s %b',
  combined: '%h %l %u %t "%r" %s %b "%{Referer}i" "%{User-Agent}i"',
};

/** The request attributes RemoteIpValve and RemoteIpFilter set for access logs (org.apache.catalina.AccessLog). */
const ATTR = {
  remoteAddr: 'org.apache.catalina.AccessLog.RemoteAddr',
  remoteHost: 'org.apache.catalina.AccessLog.RemoteHost',
  protocol: 'org.apache.catalina.AccessLog.Protocol',
  serverName: 'org.apache.catalina.AccessLog.ServerName',
  serverPort: 'org.apache.catalina.AccessLog.ServerPort',
};

/** AccessLogValve's attributes that tollgate honours, with Tomcat 10.1's defaults. */
export interface AccessLogSettings {
  pattern: string;
  /** Absolute (a relative `directory` is resolved against CATALINA_BASE). */
  directory: string;
  prefix: string;
  suffix: string;
  fileDateFormat: string;
  rotatable: boolean;
  renameOnRotate: boolean;
  buffered: boolean;
  enabled: boolean;
  requestAttributesEnabled: boolean;
  /** conditionUnless (or its older name condition): a request with this attribute set is not logged. */
  conditionUnless: string | null;
  /** conditionIf: only requests with this attribute set are logged. */
  conditionIf: string | null;
  /** Files older than this many days (by their date stamp's mtime) are deleted; negative: kept. */
  maxDays: number;
  encoding: BufferEncoding;
}

/** What the start-up summary says about a valve tollgate does not write. */
export interface AccessLogProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

const bool = (v: string | undefined, fallback: boolean): boolean =>
  v === undefined ? fallback : v.trim().toLowerCase() === 'true';

/** An AccessLogValve element's settings, or null when the element is another valve. */
export function accessLogSettings(valve: ConfigElement, catalinaBase: string): AccessLogSettings | null {
  if (valve.className?.value.trim() !== ACCESS_LOG_VALVE) return null;
  const a = (name: string): string | undefined => valve.attributes[name]?.value;
  const directory = a('directory') ?? 'logs';
  const rawPattern = a('pattern');
  // AbstractAccessLogValve.setPattern: the aliases are matched exactly; no pattern logs nothing, "" logs empty lines.
  const pattern = rawPattern === undefined ? '' : (ALIASES[rawPattern] ?? rawPattern);
  const encoding = (a('encoding') ?? 'UTF-8').trim().toLowerCase().replace(/[-_]/g, '');
  const maxDays = Number(a('maxDays') ?? '-1');
  return {
    pattern,
    directory: isAbsolute(directory) ? directory : resolve(catalinaBase, directory),
    prefix: a('prefix') ?? 'access_log',
    suffix: a('suffix') ?? '',
    fileDateFormat: a('fileDateFormat') ?? '.yyyy-MM-dd',
    rotatable: bool(a('rotatable'), true),
    renameOnRotate: bool(a('renameOnRotate'), false),
    buffered: bool(a('buffered'), true),
    enabled: bool(a('enabled'), true),
    requestAttributesEnabled: bool(a('requestAttributesEnabled'), false),
    conditionUnless: a('conditionUnless') ?? a('condition') ?? null,
    conditionIf: a('conditionIf') ?? null,
    maxDays: Number.isInteger(maxDays) ? maxDays : -1,
    encoding: encoding === 'iso88591' || encoding === 'latin1' ? 'latin1' : encoding === 'usascii' ? 'ascii' : 'utf8',
  };
}

// ------------------------------------------------------------ what a line is made of

/** What the container records of one request for its access logs. */
export interface LoggedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** Epoch milliseconds when the request arrived (Tomcat's request start time). */
  startMs: number;
  startNs: bigint;
  /** When the status line and headers went out, or null. */
  committedNs: bigint | null;
  /** Body bytes the application wrote (not the headers, not chunk framing). */
  bytes: number;
  /** The connection's remote address and port, kept at the start (Tomcat's cached elements). */
  remoteAddr: string;
  remotePort: number;
  localPort: number;
  connectionId: string;
  /** The user the host manager authenticated, when any. */
  user: string | null;
  /** The headers given to writeHead as a list (node:http does not keep them for getHeader). */
  headList: readonly string[] | null;
  /** The virtual host and context path the request was routed to (null: none). */
  host: string | null;
  context: string | null;
}

type Element = (r: LoggedRequest, endNs: bigint) => string;

/** AbstractAccessLogValve.escapeAndAppend: httpd's escaping of header values, cookies and attributes. */
export function escapeValue(input: string | null | undefined): string {
  if (input === null || input === undefined || input === '') return '-';
  let out = '';
  let next = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    let rep: string | null = null;
    if (c >= 32 && c < 127) {
      if (c === 0x5c) rep = '\\\\';
      else if (c === 0x22) rep = '\\"';
    } else if (c === 0x0c) rep = '\\f';
    else if (c === 0x0a) rep = '\\n';
    else if (c === 0x0d) rep = '\\r';
    else if (c === 0x09) rep = '\\t';
    else rep = `\\u${c.toString(16).padStart(4, '0')}`;
    if (rep !== null) {
      out += input.slice(next, i) + rep;
      next = i + 1;
    }
  }
  return next === 0 ? input : out + input.slice(next);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/** `[dd/MMM/yyyy:HH:mm:ss Z]` in the process's time zone, Locale.US (Tomcat's CLF time). */
export function commonLogTime(ms: number): string {
  const d = new Date(ms);
  const off = -d.getTimezoneOffset();
  const abs = Math.abs(off);
  return `[${two(d.getDate())}/${MONTHS[d.getMonth()]}/${d.getFullYear()}:${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${off < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}${two(abs % 60)}]`;
}

/** The request's path and query as received (Tomcat's getRequestURI and getQueryString). */
function uriAndQuery(req: IncomingMessage): [string, string | null] {
  let url = req.url ?? '/';
  // An absolute-form request-target: Tomcat's request URI is its path.
  if (url.charCodeAt(0) !== 47 && /^https?:\/\//i.test(url)) {
    const slash = url.indexOf('/', url.indexOf('//') + 2);
    url = slash < 0 ? '/' : url.slice(slash);
  }
  const q = url.indexOf('?');
  return q < 0 ? [url, null] : [url.slice(0, q), url.slice(q + 1)];
}

/** Tomcat's getServerName and getServerPort: the Host header's, else the connection's. */
function hostAndPort(r: LoggedRequest): [string, number] {
  const host = r.req.headers.host;
  if (host === undefined || host === '') return [r.req.socket.localAddress ?? '-', r.localPort];
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.indexOf(':', close + 1);
  if (colon < 0) return [host, 80];
  const port = Number(host.slice(colon + 1));
  return [host.slice(0, colon), Number.isInteger(port) ? port : 80];
}

function attribute(r: LoggedRequest, name: string): unknown {
  const ex = exchangeOf(r.req);
  return ex === undefined ? null : (ex.request.getAttribute(name) ?? null);
}

function session(r: LoggedRequest) {
  const ex = exchangeOf(r.req);
  if (ex === undefined) return null;
  try {
    return ex.request.getSession(false);
  } catch {
    // The store was still loading it or is unreachable: no session to name.
    return null;
  }
}

function responseHeaders(r: LoggedRequest, name: string): string[] {
  const v = r.res.getHeader(name);
  if (v !== undefined) return Array.isArray(v) ? v.map(String) : [String(v)];
  const out: string[] = [];
  const list = r.headList;
  if (list !== null) {
    const lower = name.toLowerCase();
    for (let i = 0; i + 1 < list.length; i += 2) if (list[i]!.toLowerCase() === lower) out.push(list[i + 1]!);
  }
  return out;
}

/** The local address %A writes: InetAddress.getLocalHost() (the host name's address), looked up once. */
let localHostAddress = '127.0.0.1';
let localHostLookedUp = false;
function lookUpLocalHost(): void {
  if (localHostLookedUp) return;
  localHostLookedUp = true;
  lookup(hostname(), { family: 4 }, (err, address) => {
    if (!err && address) localHostAddress = address;
  });
}

function elapsed(style: 's' | 'fracsec' | 'ms' | 'us' | 'ns'): Element {
  return (r, end) => {
    const ns = end - r.startNs;
    switch (style) {
      case 'ns':
        return String(ns);
      case 'us':
        return String(ns / 1000n);
      case 'ms':
        return String(ns / 1_000_000n);
      case 's':
        return String(ns / 1_000_000_000n);
      default: {
        const ms = ns / 1_000_000n;
        return `${ms / 1000n}.${String(ms % 1000n).padStart(3, '0')}`;
      }
    }
  };
}

function dateElement(spec: string): Element {
  let format = spec;
  let begin = false;
  if (format === 'begin') [begin, format] = [true, ''];
  else if (format.startsWith('begin:')) [begin, format] = [true, format.slice(6)];
  else if (format === 'end') format = '';
  else if (format.startsWith('end:')) format = format.slice(4);
  const at = (r: LoggedRequest, end: bigint): number =>
    begin ? r.startMs : r.startMs + Number((end - r.startNs) / 1_000_000n);
  if (format === '') return (r, end) => commonLogTime(at(r, end));
  if (format === 'sec') return (r, end) => String(Math.floor(at(r, end) / 1000));
  if (format === 'msec') return (r, end) => String(at(r, end));
  if (format === 'msec_frac') return (r, end) => String(at(r, end) % 1000).padStart(3, '0');
  const fmt = simpleDateFormatter(format);
  // Tomcat escapes the formatted time when the format itself holds characters that need escaping.
  const escape = escapeValue(spec) !== spec;
  return (r, end) => {
    const text = fmt(new Date(at(r, end)));
    return escape ? escapeValue(text) : text;
  };
}

function named(name: string, code: string, s: AccessLogSettings): Element {
  switch (code) {
    case 'a':
      return name === 'peer' ? (r) => r.remoteAddr : simple('a', s);
    case 'c':
      return (r) => {
        const values: string[] = [];
        for (const part of (r.req.headers.cookie ?? '').split(';')) {
          const eq = part.indexOf('=');
          if (eq > 0 && part.slice(0, eq).trim() === name)
            values.push(
              part
                .slice(eq + 1)
                .trim()
                .replace(/^"(.*)"$/, '$1'),
            );
        }
        return values.length === 0 ? '-' : escapeValue(values.join(','));
      };
    case 'i':
      return (r) => {
        const lower = name.toLowerCase();
        const raw = r.req.rawHeaders;
        const values: string[] = [];
        for (let i = 0; i + 1 < raw.length; i += 2)
          if (raw[i]!.toLowerCase() === lower) values.push(escapeValue(raw[i + 1]));
        return values.length === 0 ? '-' : values.join(',');
      };
    case 'L':
      return name === 'c' ? (r) => r.connectionId : () => '???';
    case 'o':
      return (r) => {
        const values = responseHeaders(r, name);
        return values.length === 0 ? '-' : values.map(escapeValue).join(',');
      };
    case 'p':
      return name === 'remote' ? (r) => String(r.remotePort) : simple('p', s);
    case 'r':
      return (r) => {
        const v = attribute(r, name);
        return v === null ? '-' : escapeValue(String(v));
      };
    case 's':
      return (r) => {
        const v = session(r)?.getAttribute(name);
        return v === null || v === undefined ? '-' : escapeValue(String(v));
      };
    case 't':
      return dateElement(name);
    case 'T':
      return elapsed(
        name === 'ns' ? 'ns' : name === 'us' ? 'us' : name === 'ms' ? 'ms' : name === 'fracsec' ? 'fracsec' : 's',
      );
    default:
      return () => '???';
  }
}

function simple(code: string, s: AccessLogSettings): Element {
  const attr = s.requestAttributesEnabled;
  switch (code) {
    case 'a':
      return (r) => {
        const v = attr ? attribute(r, ATTR.remoteAddr) : null;
        return v === null ? r.remoteAddr : String(v);
      };
    case 'A':
      lookUpLocalHost();
      return () => localHostAddress;
    case 'b':
      return (r) => (r.bytes <= 0 ? '-' : String(r.bytes));
    case 'B':
      return (r) => String(r.bytes);
    case 'D':
      return elapsed('us');
    case 'F':
      return (r) => (r.committedNs === null ? '-' : String((r.committedNs - r.startNs) / 1_000_000n));
    case 'h':
      return (r) => {
        const v = attr ? attribute(r, ATTR.remoteHost) : null;
        return v === null || String(v) === '' ? r.remoteAddr || '-' : String(v);
      };
    case 'H':
      return (r) => {
        const v = attr ? attribute(r, ATTR.protocol) : null;
        return v === null ? `HTTP/${r.req.httpVersion}` : String(v);
      };
    case 'l':
      return () => '-';
    case 'm':
      return (r) => r.req.method ?? '';
    case 'p':
      return (r) => {
        const v = attr ? attribute(r, ATTR.serverPort) : null;
        return v === null ? String(hostAndPort(r)[1]) : String(v);
      };
    case 'q':
      return (r) => {
        const q = uriAndQuery(r.req)[1];
        // No query string: '-' (observed on Tomcat 10.1.60, test/conformance/access-log.conformance.test.ts).
        return q === null ? '-' : `?${q}`;
      };
    case 'r':
      return (r) => {
        const [uri, q] = uriAndQuery(r.req);
        return `${r.req.method} ${uri}${q === null ? '' : `?${q}`} HTTP/${r.req.httpVersion}`;
      };
    case 's':
      return (r) => String(r.res.statusCode);
    case 'S':
      return (r) => session(r)?.id ?? '-';
    case 't':
      return (r) => commonLogTime(r.startMs);
    case 'T':
      return elapsed('s');
    case 'u':
      return (r) => (r.user === null ? '-' : escapeValue(r.user));
    case 'U':
      return (r) => uriAndQuery(r.req)[0];
    case 'v':
      return (r) => {
        const v = attr ? attribute(r, ATTR.serverName) : null;
        const name = v === null || String(v) === '' ? hostAndPort(r)[0] : String(v);
        return name === '' ? '-' : name;
      };
    case 'I':
      // Tomcat names its request thread (http-nio-8080-exec-3); Node serves every request on one thread.
      return () => `node-${process.pid}`;
    case 'X':
      return (r) => {
        if (!r.res.writableFinished) return 'X';
        const c = r.res.getHeader('connection') ?? responseHeaders(r, 'connection')[0];
        return typeof c === 'string' && c.toLowerCase() === 'close' ? '-' : '+';
      };
    default:
      return () => `???${code}???`;
  }
}

/** The pattern as AbstractAccessLogValve.createLogElements reads it. */
export function compilePattern(s: AccessLogSettings): (r: LoggedRequest, endNs: bigint) => string {
  const pattern = s.pattern;
  const elements: (string | Element)[] = [];
  let text = '';
  let replace = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (replace) {
      if (ch === '{') {
        const close = pattern.indexOf('}', i + 1);
        const j = close < 0 ? pattern.length : close;
        if (j + 1 < pattern.length) {
          elements.push(named(pattern.slice(i + 1, j), pattern[j + 1]!, s));
          i = j + 1;
        } else {
          // No closing brace (or nothing after it): Tomcat treats the '{' as a one-letter code.
          elements.push(simple(ch, s));
        }
      } else elements.push(simple(ch, s));
      replace = false;
    } else if (ch === '%') {
      replace = true;
      if (text) elements.push(text);
      text = '';
    } else text += ch;
  }
  if (text) elements.push(text);
  return (r, end) => {
    let line = '';
    for (const e of elements) line += typeof e === 'string' ? e : e(r, end);
    return line;
  };
}

// ------------------------------------------------------------ the file

/** How long a buffered line may wait, and how much may wait, before it is written. */
const FLUSH_MS = 1_000;
const FLUSH_BYTES = 64 * 1024;

/** One AccessLogValve: formats lines and writes them to its (rotating) file. */
export class AccessLog {
  private readonly format: (r: LoggedRequest, endNs: bigint) => string;
  private readonly stamp: (d: Date) => string;
  private fd: number | null = null;
  private dateStamp = '';
  /** The second the date stamp was last computed for. */
  private stampSecond = -1;
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Set when the file could not be written: one line said so; the valve keeps trying at each rotation. */
  private failed = false;

  constructor(
    readonly settings: AccessLogSettings,
    private readonly report: (message: string) => void,
  ) {
    this.format = compilePattern(settings);
    this.stamp = settings.rotatable ? simpleDateFormatter(settings.fileDateFormat) : () => '';
  }

  /** The file lines go to now. */
  currentFile(now = Date.now()): string {
    const s = this.settings;
    const stamp = s.rotatable && !s.renameOnRotate ? this.stamp(new Date(now)) : '';
    return join(s.directory, `${s.prefix}${stamp}${s.suffix}`);
  }

  log(r: LoggedRequest, endNs: bigint): void {
    const s = this.settings;
    if (this.closed || !s.enabled) return;
    if (s.conditionUnless !== null && attribute(r, s.conditionUnless) !== null) return;
    if (s.conditionIf !== null && attribute(r, s.conditionIf) === null) return;
    const line = this.format(r, endNs);
    this.rotateIfNeeded(Date.now());
    this.pending.push(line, '\n');
    this.pendingBytes += line.length + 1;
    if (!s.buffered || this.pendingBytes >= FLUSH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  private rotateIfNeeded(now: number): void {
    const second = Math.floor(now / 1000);
    if (second === this.stampSecond && this.fd !== null) return;
    this.stampSecond = second;
    const stamp = this.settings.rotatable ? this.stamp(new Date(now)) : '';
    if (this.fd !== null && stamp === this.dateStamp) return;
    this.flush();
    const previous = this.dateStamp;
    this.dateStamp = stamp;
    this.closeFile();
    const s = this.settings;
    if (s.renameOnRotate && previous !== '') {
      // The live file has no stamp; the day that ended gets its name.
      const live = join(s.directory, `${s.prefix}${s.suffix}`);
      try {
        renameSync(live, join(s.directory, `${s.prefix}${previous}${s.suffix}`));
      } catch (e) {
        this.report(`AccessLogValve: could not rename ${live}: ${(e as Error).message}`);
      }
    }
    this.open(now);
    if (s.maxDays > 0) this.deleteOld(now);
  }

  private open(now: number): void {
    const file = this.currentFile(now);
    try {
      mkdirSync(this.settings.directory, { recursive: true });
      this.fd = openSync(file, 'a');
      this.failed = false;
    } catch (e) {
      this.fd = null;
      if (!this.failed) this.report(`AccessLogValve: cannot open ${file}: ${(e as Error).message}`);
      this.failed = true;
    }
  }

  /** maxDays: files of this valve (prefix, a date stamp, suffix) last written more than maxDays ago are deleted. */
  private deleteOld(now: number): void {
    const s = this.settings;
    const current = this.currentFile(now);
    let names: string[];
    try {
      names = readdirSync(s.directory);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.startsWith(s.prefix) || !name.endsWith(s.suffix)) continue;
      const path = join(s.directory, name);
      if (path === current) continue;
      try {
        if (now - statSync(path).mtimeMs > s.maxDays * 86_400_000) unlinkSync(path);
      } catch {
        // Gone already, or not ours to delete.
      }
    }
  }

  /** Writes the buffered lines now. */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    if (this.fd === null) return;
    try {
      // One write call per flush: with --workers, each process appends whole lines (O_APPEND).
      writeSync(this.fd, Buffer.from(text, this.settings.encoding));
    } catch (e) {
      if (!this.failed) this.report(`AccessLogValve: cannot write ${this.currentFile()}: ${(e as Error).message}`);
      this.failed = true;
    }
  }

  private closeFile(): void {
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Already closed.
      }
      this.fd = null;
    }
  }

  /** Writes what is buffered and closes the file (the container stops). */
  close(): void {
    this.flush();
    this.closeFile();
    this.closed = true;
  }
}

// ------------------------------------------------------------ wiring into the container

let connections = 0;
const CONNECTION_ID = Symbol('tollgate.accessLog.connection');

/**
 * Starts recording a request for the access logs: the start time, the
 * connection's addresses, the body bytes and commit time as the response is
 * written. `done` runs once when the response has closed (finished or aborted).
 */
export function recordRequest(
  req: IncomingMessage,
  res: ServerResponse,
  done: (r: LoggedRequest, endNs: bigint) => void,
): LoggedRequest {
  const socket = req.socket as IncomingMessage['socket'] & { [CONNECTION_ID]?: string };
  socket[CONNECTION_ID] ??= String(connections++);
  const r: LoggedRequest = {
    req,
    res,
    startMs: Date.now(),
    startNs: process.hrtime.bigint(),
    committedNs: null,
    bytes: 0,
    remoteAddr: socket.remoteAddress ?? '',
    remotePort: socket.remotePort ?? 0,
    localPort: socket.localPort ?? 0,
    connectionId: socket[CONNECTION_ID],
    user: null,
    headList: null,
    host: null,
    context: null,
  };
  const head = req.method === 'HEAD';
  const count = (chunk: unknown, encoding: unknown): void => {
    r.committedNs ??= process.hrtime.bigint();
    if (head || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (typeof chunk === 'string')
      r.bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) r.bytes += chunk.byteLength;
  };
  const write = res.write;
  const end = res.end;
  const writeHead = res.writeHead;
  res.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, cb?: unknown) {
    count(chunk, encoding);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, encoding, cb);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, cb?: unknown) {
    count(chunk, encoding);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, encoding, cb);
  } as ServerResponse['end'];
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    r.committedNs ??= process.hrtime.bigint();
    const headers = args.find((a) => Array.isArray(a) || (typeof a === 'object' && a !== null)) as
      OutgoingHttpHeaders | string[] | undefined;
    if (Array.isArray(headers)) r.headList = headers.map(String);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.once('close', () => done(r, process.hrtime.bigint()));
  return r;
}

/** The symbol the host manager records its authenticated user under (on the request), for %u. */
export const AUTHENTICATED_USER = Symbol.for('tollgate.server.authenticatedUser');

/** The user recorded on the request, if any. */
export function authenticatedUser(req: IncomingMessage): string | null {
  return ((req as unknown as Record<symbol, string | undefined>)[AUTHENTICATED_USER] ?? null) as string | null;
}

/** The settings of every AccessLogValve among `valves`, and a line for each access log valve tollgate does not write. */
export function accessLogsOf(
  valves: readonly ConfigElement[],
  catalinaBase: string,
  problems: AccessLogProblem[],
): AccessLogSettings[] {
  const out: AccessLogSettings[] = [];
  for (const v of valves) {
    const s = accessLogSettings(v, catalinaBase);
    if (s !== null) {
      out.push(s);
      continue;
    }
    const cls = v.className?.value.trim() ?? '';
    if (cls === EXTENDED_ACCESS_LOG_VALVE || /AccessLogValve$/.test(cls))
      problems.push({
        file: v.span.file,
        line: v.span.line,
        column: v.span.column,
        message: `${cls}: tollgate serve does not write this access log (only ${ACCESS_LOG_VALVE})`,
      });
  }
  return out;
}

/**
 * Which access logs a request goes to, as Tomcat's containers log it: the
 * valves of its context, of its host (the default host when none matched)
 * and of the engine, each once.
 */
export class AccessLogRouter {
  private readonly engine: AccessLog[];
  private readonly hosts = new Map<string, AccessLog[]>();
  private readonly contexts = new Map<string, AccessLog[]>();
  private readonly defaultHost: string;

  constructor(
    engine: readonly AccessLogSettings[],
    hosts: ReadonlyMap<string, readonly AccessLogSettings[]>,
    defaultHost: string,
    private readonly report: (message: string) => void,
  ) {
    this.engine = engine.map((s) => new AccessLog(s, report));
    for (const [name, list] of hosts)
      if (list.length)
        this.hosts.set(
          name.toLowerCase(),
          list.map((s) => new AccessLog(s, report)),
        );
    this.defaultHost = defaultHost.toLowerCase();
  }

  /** Whether any request is logged (when none is, the container records nothing). */
  get active(): boolean {
    return this.engine.length > 0 || this.hosts.size > 0 || this.contexts.size > 0;
  }

  /** A context's own valves (its context file's, conf/context.xml's); replaces what the context had. */
  setContext(host: string, path: string, settings: readonly AccessLogSettings[]): void {
    const key = `${host.toLowerCase()}\0${path}`;
    for (const l of this.contexts.get(key) ?? []) l.close();
    if (settings.length)
      this.contexts.set(
        key,
        settings.map((s) => new AccessLog(s, this.report)),
      );
    else this.contexts.delete(key);
  }

  /** Forgets a removed host's contexts. */
  removeHost(host: string): void {
    const prefix = `${host.toLowerCase()}\0`;
    for (const [key, list] of this.contexts)
      if (key.startsWith(prefix)) {
        for (const l of list) l.close();
        this.contexts.delete(key);
      }
  }

  log(r: LoggedRequest, endNs: bigint): void {
    const host = (r.host ?? this.defaultHost).toLowerCase();
    if (r.context !== null) for (const l of this.contexts.get(`${host}\0${r.context}`) ?? []) l.log(r, endNs);
    for (const l of this.hosts.get(host) ?? []) l.log(r, endNs);
    for (const l of this.engine) l.log(r, endNs);
  }

  flush(): void {
    for (const l of this.all()) l.flush();
  }

  close(): void {
    for (const l of this.all()) l.close();
  }

  private *all(): Iterable<AccessLog> {
    yield* this.engine;
    for (const list of this.hosts.values()) yield* list;
    for (const list of this.contexts.values()) yield* list;
  }
}
