/**
 * RequestDumperFilter: logs (INFO, through its logger) every request
 * property, header, cookie and parameter before the chain, and the
 * response status, content type and headers after it. Lines of one request
 * share a prefix, as Tomcat's share the thread name; the response part is
 * written when the response is over, so asynchronous handlers are dumped
 * complete. Reading the parameters consumes a form body, as in Tomcat.
 */
import type { ServerResponse } from 'node:http';
import type { RequestDumperConfig } from '../../filters/request-dumper.js';
import { exchangeOf, type Exchange } from '../exchange.js';
import type { Logger } from '../logging.js';
import type { FilterResult, NextFilter, RuntimeFilterFactory } from '../types.js';

interface Dumper {
  readonly logger: Logger;
  count: number;
}

/** Response dumps waiting for their response to close, innermost filter first. */
const waiting = new WeakMap<Exchange, { dumper: Dumper; label: string }[]>();

export const create: RuntimeFilterFactory<RequestDumperConfig> = (_config, ctx) => {
  const dumper: Dumper = { logger: ctx.logger, count: 0 };
  return {
    name: 'RequestDumperFilter',
    doFilter(ex, next) {
      // Nothing to do when INFO is off: no label, no parameter parsing.
      if (!dumper.logger.isLoggable('INFO')) return next();
      const label = `${ctx.filterName}-${++dumper.count}`;
      const parsing = ex.request.parseParameters();
      if (ex.request.parametersParsed) return dumpAround(dumper, label, ex, next);
      return dumpAfterParsing(parsing, dumper, label, ex, next);
    },
  };
};

async function dumpAfterParsing(
  parsing: Promise<void>,
  dumper: Dumper,
  label: string,
  ex: Exchange,
  next: NextFilter,
): Promise<void> {
  await parsing;
  return dumpAround(dumper, label, ex, next);
}

function dumpAround(dumper: Dumper, label: string, ex: Exchange, next: NextFilter): FilterResult {
  dumpRequest(dumper.logger, label, ex);
  const result = next();
  if (result !== undefined) return dumpWhenSettled(result, dumper, label, ex);
  dumpWhenDone(dumper, label, ex);
  return undefined;
}

async function dumpWhenSettled(result: Promise<void>, dumper: Dumper, label: string, ex: Exchange): Promise<void> {
  try {
    await result;
  } finally {
    dumpWhenDone(dumper, label, ex);
  }
}

function dumpWhenDone(dumper: Dumper, label: string, ex: Exchange): void {
  const res = ex.res;
  if (res.writableEnded || res.destroyed) {
    dumpResponse(dumper.logger, label, ex);
    return;
  }
  let list = waiting.get(ex);
  if (list === undefined) {
    waiting.set(ex, (list = []));
    res.once('close', dumpOnClose);
  }
  list.push({ dumper, label });
}

function dumpOnClose(this: ServerResponse): void {
  const ex = exchangeOf(this);
  const list = ex === undefined ? undefined : waiting.get(ex);
  if (ex === undefined || list === undefined) return;
  waiting.delete(ex);
  for (const entry of list) dumpResponse(entry.dumper.logger, entry.label, ex);
}

function line(logger: Logger, label: string, attribute: string, value: unknown): void {
  logger.info(`${label} ${attribute}=${value === undefined ? 'null' : String(value)}`);
}

function dumpRequest(logger: Logger, label: string, ex: Exchange): void {
  const req = ex.request;
  line(logger, label, 'START TIME        ', timestamp());
  line(logger, label, '        requestURI', req.requestURI);
  line(logger, label, '          authType', null);
  line(logger, label, ' characterEncoding', req.characterEncoding);
  line(logger, label, '     contentLength', req.contentLength);
  line(logger, label, '       contentType', req.contentType);
  line(logger, label, '       contextPath', req.contextPath);
  for (const c of req.getCookies()) line(logger, label, '            cookie', `${c.name}=${c.value}`);
  for (const name of req.getHeaderNames()) {
    for (const value of req.getHeaders(name)) line(logger, label, '            header', `${name}=${value}`);
  }
  line(logger, label, '            locale', localeOf(req.getHeader('accept-language')));
  line(logger, label, '            method', req.method);
  for (const [name, values] of req.getParameterMap())
    line(logger, label, '         parameter', `${name}=${values.join(', ')}`);
  line(logger, label, '          pathInfo', req.pathInfo);
  line(logger, label, '          protocol', req.protocol);
  line(logger, label, '       queryString', req.queryString);
  line(logger, label, '        remoteAddr', req.remoteAddr);
  line(logger, label, '        remoteHost', req.remoteHost);
  line(logger, label, '        remoteUser', null);
  line(logger, label, 'requestedSessionId', req.requestedSessionId);
  line(logger, label, '            scheme', req.scheme);
  line(logger, label, '        serverName', req.serverName);
  line(logger, label, '        serverPort', req.serverPort);
  line(logger, label, '       servletPath', req.servletPath);
  line(logger, label, '          isSecure', req.secure);
  line(logger, label, '------------------', '--------------------------------------------');
}

function dumpResponse(logger: Logger, label: string, ex: Exchange): void {
  const res = ex.response;
  line(logger, label, '------------------', '--------------------------------------------');
  line(logger, label, '          authType', null);
  line(logger, label, '       contentType', res.getContentType());
  for (const name of ex.res.getHeaderNames()) {
    for (const value of res.getHeaders(name)) line(logger, label, '            header', `${name}=${value}`);
  }
  line(logger, label, '        remoteUser', null);
  line(logger, label, '            status', res.status);
  line(logger, label, 'END TIME          ', timestamp());
  line(logger, label, '==================', '============================================');
}

/** The first language of Accept-Language with the highest quality, as a Java Locale prints it (en_GB); the platform's otherwise. */
function localeOf(header: string | null): string {
  let best: string | null = null;
  let bestQ = 0;
  if (header !== null) {
    for (const part of header.split(',')) {
      const [tag = '', ...params] = part.split(';');
      const lang = tag.trim();
      if (lang === '' || lang === '*') continue;
      let q = 1;
      for (const p of params) {
        const m = QUALITY.exec(p);
        if (m !== null) q = Number(m[1]);
      }
      if (q > bestQ) {
        best = lang;
        bestQ = q;
      }
    }
  }
  return javaLocale(best ?? DEFAULT_LOCALE);
}

const QUALITY = /^\s*q\s*=\s*([0-9.]+)\s*$/i;
const DEFAULT_LOCALE = Intl.DateTimeFormat().resolvedOptions().locale;

function javaLocale(tag: string): string {
  const [language = '', region] = tag.split('-');
  return region === undefined ? language.toLowerCase() : `${language.toLowerCase()}_${region.toUpperCase()}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let stampSecond = -1;
let stampText = '';

/** dd-MMM-yyyy HH:mm:ss in local time, formatted at most once a second. */
function timestamp(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    const d = new Date(second * 1000);
    const two = (n: number) => String(n).padStart(2, '0');
    stampText = `${two(d.getDate())}-${MONTHS[d.getMonth()]}-${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
    stampSecond = second;
  }
  return stampText;
}
