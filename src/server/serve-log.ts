/**
 * The log of `tollgate serve`: every line a record of a named logger (src/runtime/logging.ts) with its
 * ISO-8601 time and java.util.logging level, as text (`time LEVEL [logger] message`) or, with
 * `--log-format json`, one JSON object per line. The start and stop lines go to stdout under the logger
 * Tomcat writes them with (org.apache.catalina.startup.Catalina); everything else to stderr.
 *
 * The levels of the base's conf/logging.properties are honoured as Tomcat's JULI
 * (ClassLoaderLogManager) reads them: `<logger>.level` for a logger and its descendants (`.level` the
 * root), the handlers a logger's records reach (`.handlers`, else every handler of `handlers`, for the
 * root; `<logger>.handlers` for a logger, with its parents' unless `<logger>.useParentHandlers` is
 * false) and each handler's `<handler>.level` (ConsoleHandler INFO, others ALL by default). A record is
 * written when its logger's level lets it through and at least one handler it reaches takes it.
 */
import type { PropertiesFile } from '../model/index.js';
import {
  LEVEL_VALUES,
  formatLogRecord,
  getLogger,
  setLogLevel,
  setLogSink,
  type LogLevel,
  type LogRecord,
} from '../runtime/logging.js';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The logger of the start and stop lines, Tomcat's (its "Server startup in [...] milliseconds"). */
export const STARTUP_LOGGER = 'org.apache.catalina.startup.Catalina';
export const startupLogger = getLogger(STARTUP_LOGGER);

const LEVELS = LEVEL_VALUES;

/** java.util.logging.Level.parse: a name, or a number that is one of the levels' values. */
function parseLevel(text: string): LogLevel | null {
  const t = text.trim();
  if (t in LEVELS) return t as LogLevel;
  if (/^-?\d+$/.test(t)) {
    const n = Number(t);
    const found = (Object.keys(LEVELS) as LogLevel[]).find((k) => LEVELS[k] === n);
    if (found) return found;
    if (n === -2147483648) return 'ALL';
    if (n === 2147483647) return 'OFF';
  }
  return null;
}

function list(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter((s) => s !== '');
}

/** What conf/logging.properties says, for the loggers tollgate writes with. */
export interface JuliLevels {
  /** Logger levels by name ('' the root). */
  readonly loggers: ReadonlyMap<string, LogLevel>;
  /** The lowest level any handler a record of `logger` reaches takes (OFF: none). */
  handlerLevel(logger: string): LogLevel;
  /** Values JULI ignores (an unknown level), as `file:line:column: message`. */
  readonly problems: readonly string[];
}

/** Reads conf/logging.properties as JULI does (see the file's comment); the last of a repeated key wins. */
export function readLoggingProperties(file: PropertiesFile): JuliLevels {
  const props = new Map<string, { value: string; at: string }>();
  for (const e of file.entries)
    props.set(e.key.value.trim(), {
      value: e.value.value,
      at: `${file.file}:${e.value.span.line}:${e.value.span.column}`,
    });
  const problems: string[] = [];
  const handlers = list(props.get('handlers')?.value);
  const handlerSet = new Set(handlers);
  const level = (key: string): LogLevel | null => {
    const p = props.get(key);
    if (p === undefined) return null;
    const l = parseLevel(p.value);
    if (l === null)
      problems.push(
        `${p.at}: ${key} = ${p.value.trim()} is not a level; JULI ignores it (use SEVERE, WARNING, INFO, CONFIG, FINE, FINER, FINEST, OFF or ALL)`,
      );
    return l;
  };
  const handlerLevels = new Map<string, LogLevel>();
  for (const h of handlers) {
    // A prefix such as "1catalina." names an instance; the class follows it.
    const cls = /^\d/.test(h) && h.includes('.') ? h.slice(h.indexOf('.') + 1) : h;
    handlerLevels.set(h, level(`${h}.level`) ?? (cls === 'java.util.logging.ConsoleHandler' ? 'INFO' : 'ALL'));
  }
  const loggers = new Map<string, LogLevel>();
  for (const key of props.keys()) {
    if (!key.endsWith('.level')) continue;
    const name = key.slice(0, -'.level'.length);
    if (handlerSet.has(name)) continue;
    const l = level(key);
    if (l !== null) loggers.set(name, l);
  }
  // Only handlers `handlers` creates can be attached.
  const attached = (names: string[]): string[] => names.filter((n) => handlerSet.has(n));
  const rootHandlers = props.has('.handlers') ? attached(list(props.get('.handlers')?.value)) : handlers;
  const memo = new Map<string, LogLevel>();
  const handlerLevel = (logger: string): LogLevel => {
    const cached = memo.get(logger);
    if (cached !== undefined) return cached;
    const reached: string[] = [];
    let name = logger;
    for (;;) {
      if (name === '') {
        reached.push(...rootHandlers);
        break;
      }
      reached.push(...attached(list(props.get(`${name}.handlers`)?.value)));
      if (props.get(`${name}.useParentHandlers`)?.value.trim().toLowerCase() === 'false') break;
      const dot = name.lastIndexOf('.');
      name = dot < 0 ? '' : name.slice(0, dot);
    }
    let lowest: LogLevel = 'OFF';
    for (const h of reached) {
      const l = handlerLevels.get(h) ?? 'ALL';
      if (LEVELS[l] < LEVELS[lowest]) lowest = l;
    }
    memo.set(logger, lowest);
    return lowest;
  };
  return { loggers, handlerLevel, problems };
}

/** One record as a JSON line: time, level, logger, message, and fields (the worker, the error). */
export function formatJsonRecord(r: LogRecord, origin?: { worker: number; pid: number }): string {
  const fields: Record<string, unknown> = {};
  if (origin) {
    fields['worker'] = origin.worker;
    fields['pid'] = origin.pid;
  }
  if (r.error !== undefined)
    fields['error'] = r.error instanceof Error ? (r.error.stack ?? String(r.error)) : String(r.error);
  return `${JSON.stringify({ time: new Date(r.time).toISOString(), level: r.level, logger: r.logger, message: r.message, fields })}\n`;
}

export interface ServeLogOptions {
  format: LogFormat;
  /** conf/logging.properties of the base, when it has one. */
  properties?: PropertiesFile | null | undefined;
  /** A cluster worker: its id and pid go into every record (text: before the logger's name). */
  origin?: { worker: number; pid: number };
  /** Where the start and stop lines go (stdout). */
  out(text: string): void;
  /** Where every other line goes (stderr). */
  err(text: string): void;
}

/**
 * Routes every logger's records to serve's output in `format`, with the levels of logging.properties;
 * returns the function that undoes it (the default sink and levels again).
 */
export function configureServeLog(options: ServeLogOptions): () => void {
  const juli = options.properties ? readLoggingProperties(options.properties) : null;
  for (const [name, level] of juli?.loggers ?? []) setLogLevel(name, level);
  const origin = options.origin;
  const text = origin ? `worker ${origin.worker} pid ${origin.pid}` : undefined;
  setLogSink((r) => {
    if (juli !== null && LEVELS[r.level] < LEVELS[juli.handlerLevel(r.logger)]) return;
    const line = options.format === 'json' ? formatJsonRecord(r, origin) : formatLogRecord(r, text);
    if (r.logger === STARTUP_LOGGER) options.out(line);
    else options.err(line);
  });
  for (const p of juli?.problems ?? []) getLogger('tollgate.serve').warning(`logging.properties: ${p}`);
  return () => {
    setLogSink(null);
    for (const name of juli?.loggers.keys() ?? []) setLogLevel(name, null);
  };
}

/** `--log-format`: text or json; anything else is refused. */
export function parseLogFormat(value: string): LogFormat {
  if ((LOG_FORMATS as readonly string[]).includes(value)) return value as LogFormat;
  throw new Error(`--log-format "${value}": write ${LOG_FORMATS.join(' or ')}`);
}
