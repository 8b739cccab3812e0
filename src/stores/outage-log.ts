/**
 * The log of a store's outages, with hysteresis. An outage is logged when it begins and when it ends,
 * one line each. A store that flaps (Redis out of memory answers reads and refuses writes, so every
 * probe half a second later "recovers" it and the next write loses it again) would otherwise write two
 * lines a second for as long as it lasts: past the first outage and its recovery, a change of state
 * that comes within `windowMs` of the previous change is counted instead, and one summary line per
 * window says how many there were and where things stand. A change after the state has held for a
 * whole window is logged on its own again.
 */

export interface OutageLogOptions {
  /** At most one summary line per this many milliseconds while the store flaps (30 s in serve). */
  windowMs: number;
  /** Milliseconds since the epoch (Date.now; a test's counter). */
  now(): number;
  /** Runs `fn` after `ms` (an unref'd setTimeout; a test's queue). */
  schedule(fn: () => void, ms: number): void;
  /** The outage begins (WARNING). */
  down(message: string): void;
  /** The outage ends, or a summary that ends with the store answering (INFO). */
  up(message: string): void;
  /** A summary that ends with the store unreachable (WARNING). */
  flapping(message: string): void;
}

export class OutageLog {
  private answering = true;
  /** When the last line was written (-Infinity: never). */
  private lastLine = Number.NEGATIVE_INFINITY;
  /** When the state last changed, logged or counted (-Infinity: never). */
  private lastChange = Number.NEGATIVE_INFINITY;
  /** When the store last stopped answering: the recovery line says how long it has not. */
  private downSince = 0;
  /** Whether the outage line was written and its recovery not yet (the recovery then gets its own line). */
  private outageOpen = false;
  private outages = 0;
  private recoveries = 0;
  private lastWhy = '';
  private summaryDue = false;

  constructor(
    /** What the lines name: `Redis at redis://127.0.0.1:6379`. */
    private readonly what: string,
    /** The consequence the outage line states (what fails closed). */
    private readonly meaning: string,
    private readonly options: OutageLogOptions,
  ) {}

  /** Whether the store answers, as the log knows it. */
  get up(): boolean {
    return this.answering;
  }

  /** The store stopped answering (`why`: the error). */
  failed(why: string): void {
    if (!this.answering) return;
    this.answering = false;
    this.lastWhy = why;
    const now = this.options.now();
    const quiet = this.quiet(now);
    this.downSince = now;
    if (quiet) {
      this.lastLine = now;
      this.outageOpen = true;
      this.options.down(`${this.what} is unreachable (${why}): ${this.meaning}`);
      return;
    }
    this.outages++;
    this.due(now);
  }

  /** The store answers again. */
  recovered(): void {
    if (this.answering) return;
    this.answering = true;
    const now = this.options.now();
    if ((this.outageOpen && !this.summaryDue) || this.quiet(now)) {
      this.outageOpen = false;
      this.lastLine = now;
      this.options.up(`${this.what} answers again after ${((now - this.downSince) / 1000).toFixed(1)} s`);
      return;
    }
    this.recoveries++;
    this.due(now);
  }

  /** Whether the store has kept its state for a whole window (no summary pending): a change then gets its own line. Notes the change. */
  private quiet(now: number): boolean {
    const quiet = !this.summaryDue && now - this.lastChange >= this.options.windowMs;
    this.lastChange = now;
    return quiet;
  }

  /** Schedules the window's summary, once. */
  private due(now: number): void {
    if (this.summaryDue) return;
    this.summaryDue = true;
    this.options.schedule(() => this.summary(), Math.max(0, this.lastLine + this.options.windowMs - now));
  }

  private summary(): void {
    this.summaryDue = false;
    const now = this.options.now();
    const seconds = ((now - this.lastLine) / 1000).toFixed(0);
    const counts = `${this.outages} more outage(s) and ${this.recoveries} recovery(ies) in the last ${seconds} s (last error: ${this.lastWhy})`;
    this.outages = 0;
    this.recoveries = 0;
    this.lastLine = now;
    // Changes go on being counted until the state holds for a whole window; then the next one gets its own line.
    this.outageOpen = false;
    if (this.answering) this.options.up(`${this.what} flapped: ${counts}; it answers now`);
    else this.options.flapping(`${this.what} flaps: ${counts}; it is unreachable now: ${this.meaning}`);
  }
}
