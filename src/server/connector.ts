/**
 * What the HTTP Connector of server.xml sets about hostile or broken
 * traffic, applied to the node:http server of `tollgate serve`: the size of
 * the request line and headers, how long a client may take, how many
 * parameters are parsed, and the answers Tomcat gives to requests it cannot
 * parse (a 400 error report, 505 for an unknown HTTP version, a silent close
 * for a client that never finished its headers).
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectorDef, ServerXml } from '../model/index.js';
import { defaultErrorPage } from '../runtime/error-page.js';

/** The Connector attributes tollgate honours, with Tomcat 10.1's defaults. */
export interface ConnectorLimits {
  /** maxHttpRequestHeaderSize (default maxHttpHeaderSize, 8192): request line plus headers, in bytes. */
  maxHttpRequestHeaderSize: number;
  /** connectionTimeout in ms (default 60000; -1 or 0: none): how long a client may take to send its headers. */
  connectionTimeout: number;
  /** keepAliveTimeout in ms (default connectionTimeout): how long an idle kept-alive connection stays open. */
  keepAliveTimeout: number;
  /** maxParameterCount (default 10000; negative: no limit). */
  maxParameterCount: number;
  /** maxPostSize in bytes (default 2097152; negative: no limit). */
  maxPostSize: number;
  /** maxHeaderCount (default 100; negative: no limit): more header lines than this is a 400. */
  maxHeaderCount: number;
}

export const DEFAULT_CONNECTOR_LIMITS: Readonly<ConnectorLimits> = {
  maxHttpRequestHeaderSize: 8192,
  connectionTimeout: 60_000,
  keepAliveTimeout: 60_000,
  maxParameterCount: 10_000,
  maxPostSize: 2 * 1024 * 1024,
  maxHeaderCount: 100,
};

/** The first plain HTTP/1.1 connector (not AJP, not TLS), the one `serve` listens as. */
export function httpConnector(serverXml: ServerXml | null): ConnectorDef | null {
  for (const s of serverXml?.services ?? []) {
    for (const c of s.connectors) {
      const protocol = c.attributes['protocol']?.value ?? 'HTTP/1.1';
      if (!/AJP/i.test(protocol) && c.attributes['SSLEnabled']?.value.trim().toLowerCase() !== 'true') return c;
    }
  }
  return null;
}

/** The connector's limits; an attribute that is not an integer keeps Tomcat's default (the lint reports it). */
export function connectorLimits(connector: ConnectorDef | null): ConnectorLimits {
  const attr = (name: string): number | null => {
    const v = connector?.attributes[name]?.value.trim();
    return v !== undefined && /^-?\d{1,10}$/.test(v) ? Number(v) : null;
  };
  const header = attr('maxHttpHeaderSize') ?? DEFAULT_CONNECTOR_LIMITS.maxHttpRequestHeaderSize;
  const connectionTimeout = attr('connectionTimeout') ?? DEFAULT_CONNECTOR_LIMITS.connectionTimeout;
  return {
    maxHttpRequestHeaderSize: attr('maxHttpRequestHeaderSize') ?? header,
    connectionTimeout,
    keepAliveTimeout: attr('keepAliveTimeout') ?? connectionTimeout,
    maxParameterCount: attr('maxParameterCount') ?? DEFAULT_CONNECTOR_LIMITS.maxParameterCount,
    maxPostSize: attr('maxPostSize') ?? DEFAULT_CONNECTOR_LIMITS.maxPostSize,
    maxHeaderCount: attr('maxHeaderCount') ?? DEFAULT_CONNECTOR_LIMITS.maxHeaderCount,
  };
}

/** Node's time for a whole request when the connector sets none of its own (node:http's default). */
const NODE_REQUEST_TIMEOUT = 300_000;

/** The createServer options that enforce the limits. */
export function serverOptions(limits: ConnectorLimits): ServerOptions {
  const headersTimeout = limits.connectionTimeout > 0 ? limits.connectionTimeout : 0;
  return {
    maxHeaderSize:
      limits.maxHttpRequestHeaderSize > 0
        ? limits.maxHttpRequestHeaderSize
        : DEFAULT_CONNECTOR_LIMITS.maxHttpRequestHeaderSize,
    // Unlike Tomcat, whose timeout restarts with every byte, the whole header section must arrive in time:
    // a client trickling one header line a second cannot hold the connection forever.
    headersTimeout,
    requestTimeout: headersTimeout === 0 ? 0 : Math.max(NODE_REQUEST_TIMEOUT, headersTimeout),
    keepAliveTimeout: limits.keepAliveTimeout > 0 ? limits.keepAliveTimeout : 0,
    // node:http checks the timeouts this often (30 s by default, too coarse for a short connectionTimeout).
    connectionsCheckingInterval:
      headersTimeout === 0 ? 30_000 : Math.min(30_000, Math.max(50, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Whether the request line and headers took more than `limit` bytes as sent.
 * node:http's own limit counts fewer bytes (not the request line or the
 * separators), so this gives Tomcat's exact boundary for requests written
 * the usual way (`Name: value` lines).
 */
export function headSizeExceeds(req: IncomingMessage, limit: number): boolean {
  if (limit <= 0) return false;
  // The request line and the blank line that ends the header section.
  let size = (req.method ?? '').length + 1 + (req.url ?? '').length + ' HTTP/1.1\r\n'.length + 2;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length && size <= limit; i += 2) size += raw[i]!.length + raw[i + 1]!.length + 4;
  return size > limit;
}

/** Tomcat's 400 message when a request has more than maxHeaderCount header lines, or null when it has not. */
export function tooManyHeaders(req: IncomingMessage, limit: number): string | null {
  return limit >= 0 && req.rawHeaders.length / 2 > limit
    ? `More than the maximum allowed number of headers, [${limit}], were detected.`
    : null;
}

const isAlnum = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');

/**
 * Whether a Host header value is one Tomcat's connector accepts (anything
 * else is a 400 there): empty, or a domain name / IPv4 address of ASCII
 * letters and digits whose labels are separated by single dots (a trailing
 * dot allowed) and may contain hyphens but not end with one, or a bracketed
 * IPv6 address without a zone; then optionally `:` and digits.
 */
export function validHostHeader(value: string): boolean {
  if (value === '') return true;
  let end: number;
  if (value[0] === '[') {
    const close = value.indexOf(']');
    const literal = close < 0 ? '' : value.slice(1, close);
    if (literal === '' || literal.includes('%') || !isIPv6(literal)) return false;
    end = close + 1;
  } else {
    // prev: what the last character was, which decides what may follow (start, label character, '.', '-').
    let prev: 'start' | 'label' | 'dot' | 'hyphen' = 'start';
    end = 0;
    for (; end < value.length && value[end] !== ':'; end++) {
      const c = value[end]!;
      if (isAlnum(c)) prev = 'label';
      else if (c === '.' && prev === 'label') prev = 'dot';
      else if (c === '-' && (prev === 'label' || prev === 'hyphen')) prev = 'hyphen';
      else return false;
    }
    if (prev === 'start' || prev === 'hyphen') return false;
  }
  if (end === value.length) return true;
  const port = value.slice(end + 1);
  return value[end] === ':' && /^\d*$/.test(port) && (port === '' || Number(port) <= 2 ** 31 - 1);
}

/**
 * The authority of an absolute-form request-target (`GET http://host/path`),
 * without userinfo, or null for the usual origin-form.
 */
export function absoluteFormAuthority(url: string): string | null {
  // The usual origin-form ('/path') needs no pattern.
  if (url.charCodeAt(0) === 47) return null;
  const m = /^https?:\/\//i.exec(url);
  if (m === null) return null;
  const rest = url.slice(m[0].length);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const at = authority.indexOf('@');
  return at < 0 ? authority : authority.slice(at + 1);
}

/**
 * Why Tomcat's connector would refuse the request's Host before any
 * application sees it (400), or null: more than one Host header, a value
 * that is not a host, or an absolute-form request-target naming another
 * host than the Host header (allowHostHeaderMismatch is false by default).
 */
export function hostProblem(req: IncomingMessage): string | null {
  // The Host lines as received (what headersDistinct.host holds, without building that view of every header).
  const raw = req.rawHeaders;
  let host: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (host !== undefined) return 'more than one Host header';
    host = raw[i + 1]!;
  }
  if (host !== undefined && !validHostHeader(host)) return 'invalid Host header';
  const authority = absoluteFormAuthority(req.url ?? '');
  if (
    authority !== null &&
    host !== undefined &&
    req.httpVersion === '1.1' &&
    authority.toLowerCase() !== host.toLowerCase()
  )
    return 'the request-target and the Host header name different hosts';
  return null;
}

interface ParseError extends Error {
  code?: string;
}

/**
 * Answers requests node:http could not parse as Tomcat answers them: a 400
 * error report (the header section over the limit says so), 505 for an
 * unsupported HTTP version, and a silent close when the headers never
 * arrived in time. A connection silent for connectionTimeout while the
 * application waits for its body gets 408, as from Tomcat; an idle one is
 * closed. A request read whole is never timed out while it is processed:
 * Tomcat's connectionTimeout covers reading the request, so a slow handler
 * (a host-manager add or persist on a loaded machine) answers what it did.
 */
export function installConnectorHandlers(server: Server, limits: ConnectorLimits): void {
  // node:http drops header lines past maxHeadersCount without a word; keep one more so tooManyHeaders sees them.
  server.maxHeadersCount = limits.maxHeaderCount < 0 ? 0 : limits.maxHeaderCount + 1;
  server.on('request', trackResponse);
  if (limits.connectionTimeout > 0) {
    server.setTimeout(limits.connectionTimeout);
    server.on('timeout', (socket: Duplex) => {
      const res = busyWith(socket);
      // Read whole and still being processed: nothing is being waited for from the client.
      if (res !== undefined && res.req.complete && !res.headersSent && socket.writable) return;
      if (res === undefined || res.headersSent || !socket.writable) socket.destroy();
      else writeError(socket, 408, null);
    });
  }
  // node:http closes a CONNECT silently without a listener; Tomcat answers it.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) =>
    writeError(socket, 501, 'HTTP requests using the CONNECT method are not supported'),
  );
  server.on('clientError', (err: ParseError, socket: Duplex) => {
    const res = busyWith(socket);
    // A response already under way cannot be replaced; headers that never arrived get no answer, as from Tomcat.
    if (
      !socket.writable ||
      res?.headersSent === true ||
      err.code === 'ECONNRESET' ||
      (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' && res === undefined)
    ) {
      socket.destroy();
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') writeError(socket, 408, null);
    else if (err.code === 'HPE_HEADER_OVERFLOW') writeError(socket, 400, 'Request header is too large');
    else if (err.code === 'HPE_INVALID_VERSION') writeError(socket, 505, null);
    else writeError(socket, 400, null);
  });
}

/** The connection's latest response, kept on its socket (Symbol.for: shared between copies of the server code). */
const RESPONSE = Symbol.for('tollgate.server.response');
type Tracked = Duplex & { [RESPONSE]?: ServerResponse };

/** Remembers the response a connection is busy with; one property store per request, no listener or closure. */
function trackResponse(req: IncomingMessage, res: ServerResponse): void {
  (req.socket as Tracked)[RESPONSE] = res;
}

/** The response the connection is still busy with: its latest one until that one has closed (finished or aborted). */
function busyWith(socket: Duplex): ServerResponse | undefined {
  const res = (socket as Tracked)[RESPONSE];
  return res === undefined || res.closed ? undefined : res;
}

/** Writes an error report straight to the socket (there is no ServerResponse for an unparsed request) and closes it. */
function writeError(socket: Duplex, status: number, message: string | null): void {
  const page = defaultErrorPage(status, message);
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`];
  if (page !== null) head.push(`Content-Type: ${page.contentType}`);
  for (const [k, v] of Object.entries(page?.headers ?? {})) head.push(`${k}: ${v}`);
  const body = page?.body ?? '';
  head.push(`Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close');
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}
