/**
 * Loggers named like Tomcat's (java.util.logging levels, hierarchical names),
 * with a replaceable sink. `isLoggable` is a cached integer comparison so
 * filters can test it on every request before building a message.
 */

/** java.util.logging levels, most to least severe, plus OFF and ALL. */
export type LogLevel = 'OFF' | 'SEVERE' | 'WARNING' | 'INFO' | 'CONFIG' | 'FINE' | 'FINER' | 'FINEST' | 'ALL';

/** java.util.logging's level values (serve's logging.properties reading compares by them too). */
export const LEVEL_VALUES: Readonly<Record<LogLevel, number>> = {
  OFF: Number.MAX_SAFE_INTEGER,
  SEVERE: 1000,
  WARNING: 900,
  INFO: 800,
  CONFIG: 700,
  FINE: 500,
  FINER: 400,
  FINEST: 300,
  ALL: Number.MIN_SAFE_INTEGER,
};

/** One message that passed its logger's level. */
export interface LogRecord {
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly level: Exclude<LogLevel, 'OFF' | 'ALL'>;
  readonly logger: string;
  readonly message: string;
  readonly error?: unknown;
}

export type LogSink = (record: LogRecord) => void;

/** A record as the default sink writes it; `origin` (a cluster worker) goes before the logger's name, where Tomcat puts the thread's. */
export function formatLogRecord(r: LogRecord, origin?: string): string {
  let line = `${new Date(r.time).toISOString()} ${r.level} ${origin === undefined ? '' : `[${origin}] `}[${r.logger}] ${r.message}\n`;
  if (r.error !== undefined)
    line += `${r.error instanceof Error ? (r.error.stack ?? String(r.error)) : String(r.error)}\n`;
  return line;
}

function stderrSink(r: LogRecord): void {
  process.stderr.write(formatLogRecord(r));
}

let sink: LogSink = stderrSink;
/** Levels set by name; '' is the root. */
const configured = new Map<string, number>([['', LEVEL_VALUES.INFO]]);
/** Bumped on every level change so loggers recompute their cached threshold lazily. */
let generation = 0;

/** A named logger. Level methods are no-ops below the effective level. */
export class Logger {
  readonly name: string;
  private threshold = 0;
  private seen = -1;

  constructor(name: string) {
    this.name = name;
  }

  /** Whether a message at `level` would reach the sink. */
  isLoggable(level: LogLevel): boolean {
    if (this.seen !== generation) this.refresh();
    return LEVEL_VALUES[level] >= this.threshold && level !== 'OFF';
  }

  severe(message: string, error?: unknown): void {
    this.log('SEVERE', message, error);
  }
  warning(message: string, error?: unknown): void {
    this.log('WARNING', message, error);
  }
  info(message: string, error?: unknown): void {
    this.log('INFO', message, error);
  }
  config(message: string, error?: unknown): void {
    this.log('CONFIG', message, error);
  }
  fine(message: string, error?: unknown): void {
    this.log('FINE', message, error);
  }
  finer(message: string, error?: unknown): void {
    this.log('FINER', message, error);
  }
  finest(message: string, error?: unknown): void {
    this.log('FINEST', message, error);
  }

  /** Sends a record to the sink when the level passes; a failing sink never breaks the caller. */
  log(level: Exclude<LogLevel, 'OFF' | 'ALL'>, message: string, error?: unknown): void {
    if (!this.isLoggable(level)) return;
    const record: LogRecord =
      error === undefined
        ? { time: Date.now(), level, logger: this.name, message }
        : { time: Date.now(), level, logger: this.name, message, error };
    try {
      sink(record);
    } catch {
      // A logging failure must not turn into a request failure.
    }
  }

  private refresh(): void {
    // java.util.logging semantics: the nearest configured ancestor (a.b.c, a.b, a, root) decides.
    let name = this.name;
    for (;;) {
      const v = configured.get(name);
      if (v !== undefined) {
        this.threshold = v;
        break;
      }
      // The root ('') is always configured, so the walk ends there.
      const dot = name.lastIndexOf('.');
      name = dot < 0 ? '' : name.slice(0, dot);
    }
    this.seen = generation;
  }
}

const loggers = new Map<string, Logger>();

/** The logger with this name (one instance per name). */
export function getLogger(name: string): Logger {
  let l = loggers.get(name);
  if (l === undefined) {
    l = new Logger(name);
    loggers.set(name, l);
  }
  return l;
}

/** Sets the level of a logger and its descendants (`''` is the root, INFO by default); `null` removes the setting. */
export function setLogLevel(name: string, level: LogLevel | null): void {
  if (level !== null && !(level in LEVEL_VALUES))
    throw new TypeError(
      `unknown log level ${JSON.stringify(level)}; use one of ${Object.keys(LEVEL_VALUES).join(', ')}`,
    );
  if (level === null) {
    if (name === '') configured.set('', LEVEL_VALUES.INFO);
    else configured.delete(name);
  } else {
    configured.set(name, LEVEL_VALUES[level]);
  }
  generation++;
}

/** Routes every record to `fn`; `null` restores the default sink (one line per record on stderr). */
export function setLogSink(fn: LogSink | null): void {
  if (fn !== null && typeof fn !== 'function') throw new TypeError('setLogSink expects a function or null');
  sink = fn ?? stderrSink;
}
