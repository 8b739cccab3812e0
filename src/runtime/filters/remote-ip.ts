/**
 * RemoteIpFilter: for requests from an internal or trusted proxy, takes the
 * client address from the remoteIpHeader list (walked from the nearest
 * entry back), and scheme, secure flag, server port and host from the
 * protocol, port and host headers. What downstream sees is restored once
 * the chain is over and the response finished (Tomcat hands downstream a
 * wrapper it then drops); like Tomcat, the secure flag and the request
 * attributes stay set.
 */
import { reverse } from 'node:dns/promises';
import type { ServerResponse } from 'node:http';
import type { RemoteIpConfig } from '../../filters/remote-ip.js';
import { exchangeOf, type Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import { boundedMemo } from '../../protocol/memo.js';
import { parseIp } from '../../protocol/net.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';
import { firstHeader, splitCommaSeparated, toRegExp } from './support.js';

/** Request attributes RemoteIpFilter sets for access logs (AccessLog and Globals constants). */
export const REMOTE_IP_ATTRIBUTES = {
  remoteAddr: 'org.apache.catalina.AccessLog.RemoteAddr',
  remoteHost: 'org.apache.catalina.AccessLog.RemoteHost',
  protocol: 'org.apache.catalina.AccessLog.Protocol',
  serverName: 'org.apache.catalina.AccessLog.ServerName',
  serverPort: 'org.apache.catalina.AccessLog.ServerPort',
  /** Globals.REMOTE_ADDR_ATTRIBUTE. */
  tomcatRemoteAddr: 'org.apache.tomcat.remoteAddr',
  /** Globals.REQUEST_FORWARDED_ATTRIBUTE: true once the filter processed the request. */
  forwarded: 'org.apache.tomcat.request.forwarded',
  /** Globals.REMOTE_IP_FILTER_SECURE: the secure flag the filter set. */
  secure: 'org.apache.catalina.filters.RemoteIpFilter.secure',
} as const;

interface RemoteIp {
  /** internalProxies first, then trustedProxies: the same address always gets the same answer, so it is remembered. */
  readonly kindOf: (address: string) => ProxyKind;
  readonly remoteIpHeader: string;
  /** Whether Node keeps remoteIpHeader (protocolHeader) other than as one ", "-joined value, so its lines are read instead. */
  readonly remoteIpSpecial: boolean;
  readonly proxiesHeader: string;
  readonly protocolHeader: string | null;
  readonly protocolSpecial: boolean;
  readonly httpsValue: string;
  readonly portHeader: string | null;
  readonly hostHeader: string | null;
  readonly httpPort: number;
  readonly httpsPort: number;
  readonly changeLocalPort: boolean;
  readonly changeLocalName: boolean;
  readonly requestAttributes: boolean;
  readonly enableLookups: boolean;
  readonly logger: Logger;
}

/** What downstream saw changed, to put back afterwards. */
interface Saved {
  readonly ip: RemoteIp;
  remoteAddr: string;
  remoteHost: string;
  scheme: string;
  serverName: string;
  serverPort: number;
  localPort: number;
  localName: string;
  /** Header lines as they were, when the filter replaced them; null when untouched. */
  remoteIpLines: string[] | null;
  proxiesLines: string[] | null;
  restored: boolean;
}

/** How many addresses (connecting peers and header entries) each filter remembers the proxy verdict for. */
const KIND_CACHE_SIZE = 4096;

const pending = new WeakMap<Exchange, Saved[]>();

const JAVA_INT = /^[+-]?\d{1,10}$/;
/** What String.prototype.trim removes (WhiteSpace and LineTerminator), as \s matches exactly those. */
const WHITE_SPACE = /\s/;

/** How an address is treated: a proxy to skip (internal), one to record (trusted), or the client. */
const CLIENT = 0;
const INTERNAL = 1;
const TRUSTED = 2;
type ProxyKind = typeof CLIENT | typeof INTERNAL | typeof TRUSTED;
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
const DIGITS = /^\d*$/;

export const create: RuntimeFilterFactory<RemoteIpConfig> = (config, ctx) => {
  const internal = toRegExp(config.internalProxies);
  const trusted = toRegExp(config.trustedProxies);
  const kindOf = boundedMemo(
    (address): ProxyKind =>
      internal !== null && internal.test(address)
        ? INTERNAL
        : trusted !== null && trusted.test(address)
          ? TRUSTED
          : CLIENT,
    KIND_CACHE_SIZE,
    64,
  );
  const ip: RemoteIp = {
    kindOf,
    remoteIpHeader: config.remoteIpHeader.toLowerCase(),
    remoteIpSpecial: NODE_SPECIAL.has(config.remoteIpHeader.toLowerCase()),
    proxiesHeader: config.proxiesHeader.toLowerCase(),
    protocolHeader: config.protocolHeader === null ? null : config.protocolHeader.toLowerCase(),
    protocolSpecial: config.protocolHeader !== null && NODE_SPECIAL.has(config.protocolHeader.toLowerCase()),
    httpsValue: config.protocolHeaderHttpsValue.toLowerCase(),
    portHeader: config.portHeader === null ? null : config.portHeader.toLowerCase(),
    hostHeader: config.hostHeader === null ? null : config.hostHeader.toLowerCase(),
    httpPort: config.httpServerPort,
    httpsPort: config.httpsServerPort,
    changeLocalPort: config.changeLocalPort,
    changeLocalName: config.changeLocalName,
    requestAttributes: config.requestAttributesEnabled,
    enableLookups: config.enableLookups,
    logger: ctx.logger,
  };
  return { name: 'RemoteIpFilter', doFilter: (ex, next) => filter(ip, ex, next) };
};

function filter(ip: RemoteIp, ex: Exchange, next: NextFilter): FilterResult {
  const req = ex.request;
  const addr = req.remoteAddr;
  const kind = ip.kindOf(addr);
  const isInternal = kind === INTERNAL;
  if (kind === CLIENT) {
    if (ip.logger.isLoggable('FINEST'))
      ip.logger.finest(`Skip RemoteIpFilter for request ${req.requestURI} with originalRemoteAddr '${addr}'`);
    return next();
  }
  const saved: Saved = {
    ip,
    remoteAddr: addr,
    remoteHost: req.remoteHost,
    scheme: req.scheme,
    serverName: req.serverName,
    serverPort: req.serverPort,
    localPort: req.localPort,
    localName: req.localName,
    remoteIpLines: null,
    proxiesLines: null,
    restored: false,
  };
  const remoteIp = walkProxies(ip, ex, isInternal, saved);
  if (remoteIp !== null && ip.enableLookups) return lookupThenContinue(ip, ex, next, saved, remoteIp);
  if (remoteIp !== null) req.remoteHost = remoteIp;
  return forward(ip, ex, next, saved);
}

/**
 * Walks remoteIpHeader from the last entry: internal proxies are dropped,
 * trusted ones move to proxiesHeader, the first other entry is the client.
 * Sets remoteAddr and both headers; returns the client address, or null when
 * the header is absent (then nothing about the address changes).
 *
 * The entries are StringUtils.splitCommaSeparated's (split on ',', each
 * trimmed, trailing empty pieces dropped), read from the end of the text
 * without splitting it: the walk usually stops at the last entry or the one
 * before it.
 */
function walkProxies(ip: RemoteIp, ex: Exchange, isInternal: boolean, saved: Saved): string | null {
  const req = ex.request;
  const joined = mergedHeader(ex, ip.remoteIpHeader, ip.remoteIpSpecial, ', ');
  if (joined === null) return null;
  // Trailing empty pieces are dropped (an all-comma or empty header has no entries).
  let pieceEnd = joined.length;
  while (pieceEnd > 0 && joined.charCodeAt(pieceEnd - 1) === 44) pieceEnd--;
  if (pieceEnd === 0) return null;
  // Nearest first; the header lists them in request order.
  let proxies: string[] | null = isInternal ? null : [saved.remoteAddr];
  let remoteIp: string;
  // Where the entries left for remoteIpHeader end in `joined`: -1 when none are left.
  let restEnd = -1;
  for (;;) {
    // The ',' before this entry (lastIndexOf, scanned here: the builtin is a call into the runtime).
    let comma = pieceEnd - 1;
    while (comma >= 0 && joined.charCodeAt(comma) !== 44) comma--;
    remoteIp = joined.slice(comma + 1, pieceEnd).trim();
    const kind = ip.kindOf(remoteIp);
    if (kind === CLIENT) {
      restEnd = comma;
      break;
    }
    if (kind === TRUSTED) (proxies ??= []).push(remoteIp);
    if (comma < 0) break;
    pieceEnd = comma;
  }
  req.remoteAddr = remoteIp;
  const hadProxies = req.headerLowerCased(ip.proxiesHeader) !== null;
  // An absent proxies header that stays absent is left alone (and so needs no restoring).
  if (hadProxies || proxies !== null) {
    saved.proxiesLines = hadProxies ? req.getHeaders(ip.proxiesHeader) : [];
    req.setHeader(ip.proxiesHeader, proxies === null ? null : proxies.reverse().join(','));
  }
  saved.remoteIpLines = req.getHeaders(ip.remoteIpHeader);
  req.setHeader(ip.remoteIpHeader, restEnd < 0 ? null : remainingEntries(joined, restEnd));
  return remoteIp;
}

/** The entries before `end`, each trimmed, joined with ',' (text without white space is that already). */
function remainingEntries(joined: string, end: number): string {
  const rest = joined.slice(0, end);
  if (!WHITE_SPACE.test(rest)) return rest;
  const pieces = rest.split(',');
  for (let i = 0; i < pieces.length; i++) pieces[i] = pieces[i]!.trim();
  return pieces.join(',');
}

async function lookupThenContinue(
  ip: RemoteIp,
  ex: Exchange,
  next: NextFilter,
  saved: Saved,
  remoteIp: string,
): Promise<void> {
  ex.request.remoteHost = await hostNameOf(remoteIp, ip.logger);
  return forward(ip, ex, next, saved);
}

/** getCanonicalHostName: the reverse DNS name, or the address when there is none. */
async function hostNameOf(address: string, logger: Logger): Promise<string> {
  if (parseIp(address) === null) return address;
  try {
    const names = await reverse(address);
    return names[0] ?? address;
  } catch (err) {
    if (logger.isLoggable('FINE'))
      logger.fine(
        `Unable to determine the remote host because the reported remote address [${address}] is not valid`,
        err,
      );
    return address;
  }
}

function forward(ip: RemoteIp, ex: Exchange, next: NextFilter, saved: Saved): FilterResult {
  const req = ex.request;
  if (ip.protocolHeader !== null) {
    const value = mergedHeader(ex, ip.protocolHeader, ip.protocolSpecial, ',');
    if (value !== null) {
      const https = isHttps(ip, value);
      req.secure = https;
      req.setAttribute(REMOTE_IP_ATTRIBUTES.secure, https);
      req.scheme = https ? 'https' : 'http';
      setPorts(ip, ex, https ? ip.httpsPort : ip.httpPort);
    }
  }
  if (ip.hostHeader !== null) {
    const host = firstHeader(ex, ip.hostHeader);
    if (host !== null) {
      const portAt = hostPortIndex(host);
      if (portAt === null) {
        if (ip.logger.isLoggable('FINE'))
          ip.logger.fine(`Invalid value [${host}] found for Host in HTTP header [${ip.hostHeader}]`);
      } else {
        const name = portAt < 0 ? host : host.slice(0, portAt);
        req.serverName = name;
        if (ip.changeLocalName) req.localName = name;
      }
    }
  }
  req.setAttribute(REMOTE_IP_ATTRIBUTES.forwarded, true);
  if (ip.requestAttributes) {
    req.setAttribute(REMOTE_IP_ATTRIBUTES.remoteAddr, req.remoteAddr);
    req.setAttribute(REMOTE_IP_ATTRIBUTES.tomcatRemoteAddr, req.remoteAddr);
    req.setAttribute(REMOTE_IP_ATTRIBUTES.remoteHost, req.remoteHost);
    req.setAttribute(REMOTE_IP_ATTRIBUTES.protocol, req.protocol);
    req.setAttribute(REMOTE_IP_ATTRIBUTES.serverName, req.serverName);
    req.setAttribute(REMOTE_IP_ATTRIBUTES.serverPort, req.serverPort);
  }
  if (ip.logger.isLoggable('FINEST')) {
    ip.logger.finest(
      `Incoming request ${req.requestURI} with originalRemoteAddr [${saved.remoteAddr}], originalScheme=[${saved.scheme}], originalServerName=[${saved.serverName}], originalServerPort=[${saved.serverPort}] will be seen as newRemoteAddr=[${req.remoteAddr}], newRemoteHost=[${req.remoteHost}], newSecure=[${req.secure}], newScheme=[${req.scheme}], newServerName=[${req.serverName}], newServerPort=[${req.serverPort}]`,
    );
  }
  const result = next();
  if (result !== undefined) return restoreWhenSettled(result, ex, saved);
  restoreWhenDone(ex, saved);
  return undefined;
}

/** isForwardedProtoHeaderValueSecure: every comma-separated value must be the https value. */
function isHttps(ip: RemoteIp, value: string): boolean {
  if (value.indexOf(',') < 0) return value.toLowerCase() === ip.httpsValue;
  const protocols = splitCommaSeparated(value);
  if (protocols.length === 0) return false;
  for (const p of protocols) if (p.toLowerCase() !== ip.httpsValue) return false;
  return true;
}

function setPorts(ip: RemoteIp, ex: Exchange, defaultPort: number): void {
  let port = defaultPort;
  if (ip.portHeader !== null) {
    const v = firstHeader(ex, ip.portHeader);
    // Integer.parseInt: an optional sign and digits, in int range; anything else keeps the default.
    if (v !== null && JAVA_INT.test(v)) {
      const n = Number(v);
      if (n >= -2147483648 && n <= 2147483647) port = n;
    }
  }
  ex.request.serverPort = port;
  if (ip.changeLocalPort) ex.request.localPort = port;
}

/** Headers Node does not simply join with ", " (it keeps the first, or makes an array); others are read without building the per-line view. */
const NODE_SPECIAL = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
  'set-cookie',
  'cookie',
]);

/** Every line of a header joined with `separator` (RequestUtil.getMergedHeaderValue), or null when absent. */
function mergedHeader(ex: Exchange, name: string, special: boolean, separator: string): string | null {
  if (!special) return ex.request.headerLowerCased(name);
  const lines = ex.request.getHeaders(name);
  return lines.length === 0 ? null : lines.join(separator);
}

async function restoreWhenSettled(result: Promise<void>, ex: Exchange, saved: Saved): Promise<void> {
  try {
    await result;
  } finally {
    restoreWhenDone(ex, saved);
  }
}

/** Restores at once when the response is over, else when it closes (an asynchronous handler is still using the values). */
function restoreWhenDone(ex: Exchange, saved: Saved): void {
  const res = ex.res;
  if (res.writableEnded || res.destroyed) {
    restore(ex, saved);
    return;
  }
  let list = pending.get(ex);
  if (list === undefined) {
    pending.set(ex, (list = []));
    res.once('close', restorePending);
  }
  list.push(saved);
}

function restorePending(this: ServerResponse): void {
  const ex = exchangeOf(this);
  if (ex === undefined) return;
  const list = pending.get(ex);
  pending.delete(ex);
  // Innermost first, as the wrappers would have unwound.
  if (list !== undefined) for (let i = list.length - 1; i >= 0; i--) restore(ex, list[i]!);
}

function restore(ex: Exchange, saved: Saved): void {
  if (saved.restored) return;
  saved.restored = true;
  const req = ex.request;
  req.remoteAddr = saved.remoteAddr;
  req.remoteHost = saved.remoteHost;
  req.scheme = saved.scheme;
  req.serverName = saved.serverName;
  req.serverPort = saved.serverPort;
  req.localPort = saved.localPort;
  req.localName = saved.localName;
  if (saved.remoteIpLines !== null) req.setHeader(saved.ip.remoteIpHeader, asHeaderValue(saved.remoteIpLines));
  if (saved.proxiesLines !== null) req.setHeader(saved.ip.proxiesHeader, asHeaderValue(saved.proxiesLines));
}

/** Saved lines as ExchangeRequest.setHeader takes them: null for none, the line itself for one (no copy to join). */
function asHeaderValue(lines: string[]): string | string[] | null {
  return lines.length === 0 ? null : lines.length === 1 ? lines[0]! : lines;
}

/**
 * Tomcat's Host.parse over a host header value: the index of the ':' before
 * the port, -1 without a port, null when the value is not a valid host.
 */
export function hostPortIndex(value: string): number | null {
  if (value === '') return null;
  if (value.charCodeAt(0) === 91) {
    const close = value.indexOf(']');
    if (close < 0) return null;
    const literal = value.slice(1, close);
    if (!IPV6_CHARS.test(literal) || parseIp(literal)?.length !== 16) return null;
    if (close === value.length - 1) return -1;
    return value.charCodeAt(close + 1) === 58 && DIGITS.test(value.slice(close + 2)) ? close + 1 : null;
  }
  // DomainParseState: letters and digits anywhere; '.' after a letter or digit; '-' not after '.';
  // the end or ':' only after a letter, digit or '.'.
  let prev = 0; // 0 start, 1 alphanumeric, 2 period, 3 hyphen
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) prev = 1;
    else if (c === 46 && prev === 1) prev = 2;
    else if (c === 45 && (prev === 1 || prev === 3)) prev = 3;
    else if (c === 58 && (prev === 1 || prev === 2)) return DIGITS.test(value.slice(i + 1)) ? i : null;
    else return null;
  }
  return prev === 1 || prev === 2 ? -1 : null;
}
