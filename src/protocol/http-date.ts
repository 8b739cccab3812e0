/**
 * HTTP dates read exactly as Tomcat 10.1 reads them (FastHttpDateFormat.parseDate): three
 * SimpleDateFormat patterns in Locale.US and GMT, tried in turn, each lenient:
 *
 *   "EEE, dd MMM yyyy HH:mm:ss z"     IMF-fixdate (RFC 5322)
 *   "EEEEEE, dd-MMM-yy HH:mm:ss zzz"  RFC 850
 *   "EEE MMMM d HH:mm:ss yyyy"        asctime, always GMT (never the machine's zone)
 *
 * What "lenient" means is Java's, and it is what a client meets, so it is followed here:
 * text after a complete date is ignored; names match in any case, long or short (a wrong weekday
 * is ignored); numbers may have spaces before them, any count of digits, Unicode digits, a minus
 * sign or an exponent (`1E1`), and out-of-range values roll over (31 Feb is 3 Mar, hour 25 is
 * the next day); a two-digit RFC 850 year falls in the 100 years starting 80 years ago; dates
 * before 15 October 1582 are Julian, as java.util.GregorianCalendar counts them.
 * Anything else is not a date: `parseHttpDate` gives null, and Tomcat ignores such a header
 * (`If-Unmodified-Since: 1` is no precondition), where `Date.parse` would read "1" as 2001.
 *
 * One difference, on the safe side: after the time, Tomcat also accepts Java's time-zone names
 * (EST, CET, "Pacific Standard Time"...), resolved through the JVM's default zone and the zone's
 * history; here only GMT, UTC, their long names and numeric offsets (`GMT+01:00`, `+0100`) are
 * read, and a date with another name is ignored like any unreadable date.
 */

import { javaDigit } from './java-integer.js';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SHORT_MONTHS = MONTHS.map((m) => m.slice(0, 3));
const SHORT_WEEKDAYS = WEEKDAYS.map((d) => d.slice(0, 3));

/** Names Java's zone table gives GMT and UTC, which SimpleDateFormat matches as a prefix, in any case. */
const ZERO_OFFSET_NAMES = ['greenwich mean time', 'coordinated universal time', 'gmt', 'utc'];

type Field = 'weekday' | 'day' | 'month' | 'year' | 'year2' | 'hour' | 'minute' | 'second' | 'zone';
type Element = Field | { literal: string };

const IMF_FIXDATE: Element[] = [
  'weekday',
  { literal: ', ' },
  'day',
  { literal: ' ' },
  'month',
  { literal: ' ' },
  'year',
  { literal: ' ' },
  'hour',
  { literal: ':' },
  'minute',
  { literal: ':' },
  'second',
  { literal: ' ' },
  'zone',
];
const RFC_850: Element[] = [
  'weekday',
  { literal: ', ' },
  'day',
  { literal: '-' },
  'month',
  { literal: '-' },
  'year2',
  { literal: ' ' },
  'hour',
  { literal: ':' },
  'minute',
  { literal: ':' },
  'second',
  { literal: ' ' },
  'zone',
];
const ASCTIME: Element[] = [
  'weekday',
  { literal: ' ' },
  'month',
  { literal: ' ' },
  'day',
  { literal: ' ' },
  'hour',
  { literal: ':' },
  'minute',
  { literal: ':' },
  'second',
  { literal: ' ' },
  'year',
];
const FORMATS = [IMF_FIXDATE, RFC_850, ASCTIME];

const MS_PER_DAY = 86_400_000n;
/** Fixed dates (days, 1 = 1 January 1 Gregorian) as java.util.GregorianCalendar counts them. */
const EPOCH_FIXED_DATE = 719_163n;
const GREGORIAN_CUTOVER_FIXED_DATE = 577_736n;

/**
 * SimpleDateFormat's two-digit years fall in the 100 years from 80 years before the formatter
 * was made; Tomcat makes its formatters once, when the class loads: here, when this module loads.
 */
const CENTURY_START_MS = (() => {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - 80);
  return d.getTime();
})();
const CENTURY_START_YEAR = new Date(CENTURY_START_MS).getUTCFullYear();

/** Java's Number.intValue of what DecimalFormat parsed: a long wraps to 32 bits, a double truncates and saturates. */
function intValue(n: bigint | number): number {
  if (typeof n === 'bigint') return Number(BigInt.asIntN(32, n));
  if (Number.isNaN(n)) return 0;
  if (n >= 2147483647) return 2147483647;
  if (n <= -2147483648) return -2147483648;
  return Math.trunc(n);
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/**
 * A number as SimpleDateFormat's DecimalFormat (Locale.US, integers only, no grouping) reads it
 * at `i`: an optional minus, digits, an optional exponent (`E`, optional minus, digits), or the
 * symbols NaN and ∞. Returns the int value and where it ended, or null when there is no number.
 */
function readNumber(text: string, start: number): { value: number; end: number } | null {
  // DecimalFormat looks for NaN before any sign (so "-NaN" is no number), and NaN's int value is 0.
  if (text.startsWith('NaN', start)) return { value: 0, end: start + 3 };
  let i = start;
  let negative = false;
  if (text.charCodeAt(i) === 45) {
    negative = true;
    i++;
  }
  if (text.charCodeAt(i) === 0x221e) return { value: negative ? -2147483648 : 2147483647, end: i + 1 };
  let digits = '';
  while (i < text.length) {
    const d = javaDigit(text.charCodeAt(i));
    if (d < 0) break;
    digits += d;
    i++;
  }
  if (digits === '') return null;
  let exponent = 0;
  if (text.charCodeAt(i) === 69) {
    let j = i + 1;
    let expNegative = false;
    if (text.charCodeAt(j) === 45) {
      expNegative = true;
      j++;
    }
    let expDigits = '';
    while (j < text.length) {
      const d = javaDigit(text.charCodeAt(j));
      if (d < 0) break;
      expDigits += d;
      j++;
    }
    if (expDigits !== '') {
      exponent = Math.min(Number(expDigits), 1000) * (expNegative ? -1 : 1);
      i = j;
    }
  }
  const mantissa = BigInt(digits) * (negative ? -1n : 1n);
  if (exponent >= 0) {
    const whole = mantissa * 10n ** BigInt(Math.min(exponent, 400));
    // DecimalFormat gives a Long when the value fits one (except -0), else a Double.
    if (whole >= LONG_MIN && whole <= LONG_MAX && !(negative && whole === 0n))
      return { value: intValue(whole), end: i };
    return { value: intValue(Number(whole)), end: i };
  }
  return { value: intValue(Number(mantissa) * 10 ** exponent), end: i };
}

/** The longest of `names` that starts `text` at `at` (any case), as an index, or -1. */
function matchName(text: string, at: number, names: readonly string[]): number {
  let best = -1;
  let bestLength = 0;
  names.forEach((name, index) => {
    if (
      name.length > bestLength &&
      text.length - at >= name.length &&
      text.slice(at, at + name.length).toLowerCase() === name
    ) {
      best = index;
      bestLength = name.length;
    }
  });
  return best;
}

/** SimpleDateFormat.subParseNumericZone: `hh:mm` (hours may be one digit) after GMT±, or `hhmm` (RFC 822) after ±. */
function readNumericZone(text: string, start: number, colon: boolean): { minutes: number; end: number } | null {
  const isDigit = (at: number): boolean => text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57;
  let i = start;
  if (!isDigit(i)) return null;
  let hours = text.charCodeAt(i++) - 48;
  if (isDigit(i)) hours = hours * 10 + text.charCodeAt(i++) - 48;
  else if (!colon) return null;
  if (hours > 23) return null;
  if (colon) {
    if (text.charCodeAt(i) !== 58) return null;
    i++;
  }
  if (!isDigit(i) || !isDigit(i + 1)) return null;
  const minutes = (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;
  if (minutes > 59) return null;
  return { minutes: hours * 60 + minutes, end: i + 2 };
}

interface Parsed {
  day: number;
  month: number;
  year: number;
  twoDigitYear: boolean;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** The fixed date of the first day of `month` (0-11) of `year` in the Gregorian or the Julian calendar. */
function fixedDateOfMonth(year: bigint, month: number, julian: boolean): bigint {
  const prior = year - 1n;
  const leap = julian ? year % 4n === 0n : (year % 4n === 0n && year % 100n !== 0n) || year % 400n === 0n;
  let days = 365n * prior + floorDiv(prior, 4n) + BigInt(Math.floor((367 * (month + 1) - 362) / 12));
  days += julian ? -2n : -floorDiv(prior, 100n) + floorDiv(prior, 400n);
  if (month >= 2) days -= leap ? 1n : 2n;
  return days + 1n;
}

/** Milliseconds since the epoch of lenient calendar fields, as GregorianCalendar.computeTime does it (GMT, then the offset). */
function timeOf(p: Parsed, year: number): bigint {
  let timeOfDay = ((BigInt(p.hour) * 60n + BigInt(p.minute)) * 60n + BigInt(p.second)) * 1000n;
  let carry = timeOfDay / MS_PER_DAY;
  timeOfDay %= MS_PER_DAY;
  if (timeOfDay < 0n) {
    timeOfDay += MS_PER_DAY;
    carry -= 1n;
  }
  const y = BigInt(year);
  const day = BigInt(p.day) - 1n + carry;
  const gregorian = fixedDateOfMonth(y, p.month, false) + day;
  const julian = fixedDateOfMonth(y, p.month, true) + day;
  let fixed: bigint;
  if (year > 1582 && gregorian >= GREGORIAN_CUTOVER_FIXED_DATE) fixed = gregorian;
  else if (year < 1582 && julian < GREGORIAN_CUTOVER_FIXED_DATE) fixed = julian;
  else fixed = gregorian >= GREGORIAN_CUTOVER_FIXED_DATE ? gregorian : julian;
  // Java computes in longs, which wrap: so does this, for the absurd years and days that overflow them.
  const local = BigInt.asIntN(64, BigInt.asIntN(64, (fixed - EPOCH_FIXED_DATE) * MS_PER_DAY) + timeOfDay);
  return BigInt.asIntN(64, local - BigInt(p.offsetMinutes) * 60_000n);
}

function parseWith(text: string, format: readonly Element[]): bigint | null {
  const p: Parsed = {
    day: 0,
    month: 0,
    year: 1970,
    twoDigitYear: false,
    hour: 0,
    minute: 0,
    second: 0,
    offsetMinutes: 0,
  };
  let i = 0;
  for (const element of format) {
    if (typeof element !== 'string') {
      if (!text.startsWith(element.literal, i)) return null;
      i += element.literal.length;
      continue;
    }
    // Every field may follow spaces and tabs, but names are matched where the field starts:
    // SimpleDateFormat skips the white space and then looks for the name before it.
    const start = i;
    while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
    if (i >= text.length) return null;
    if (element === 'weekday' || element === 'month') {
      const [long, short] = element === 'weekday' ? [WEEKDAYS, SHORT_WEEKDAYS] : [MONTHS, SHORT_MONTHS];
      let index = matchName(text, start, long);
      let length = index >= 0 ? long[index]!.length : 0;
      if (index < 0) {
        index = matchName(text, start, short);
        length = 3;
      }
      if (index < 0) return null;
      if (element === 'month') p.month = index;
      i = start + length;
      continue;
    }
    if (element === 'zone') {
      const c = text.charCodeAt(i);
      if (c === 43 || c === 45) {
        const zone = readNumericZone(text, i + 1, false);
        if (!zone) return null;
        p.offsetMinutes = c === 43 ? zone.minutes : -zone.minutes;
        i = zone.end;
      } else if ((c === 71 || c === 103) && text.slice(start, start + 3).toLowerCase() === 'gmt') {
        i = start + 3;
        const sign = text.charCodeAt(i);
        if (sign === 43 || sign === 45) {
          const zone = readNumericZone(text, i + 1, true);
          if (!zone) return null;
          p.offsetMinutes = sign === 43 ? zone.minutes : -zone.minutes;
          i = zone.end;
        }
      } else {
        const name = matchName(text, i, ZERO_OFFSET_NAMES);
        if (name < 0) return null;
        i += ZERO_OFFSET_NAMES[name]!.length;
      }
      continue;
    }
    const n = readNumber(text, i);
    if (!n) return null;
    if (element === 'year2')
      p.twoDigitYear = n.end - i === 2 && javaDigit(text.charCodeAt(i)) >= 0 && javaDigit(text.charCodeAt(i + 1)) >= 0;
    i = n.end;
    if (element === 'day') p.day = n.value;
    else if (element === 'year' || element === 'year2') p.year = n.value;
    else if (element === 'hour') p.hour = n.value;
    else if (element === 'minute') p.minute = n.value;
    else p.second = n.value;
  }
  if (!p.twoDigitYear) return timeOf(p, p.year);
  const pivot = CENTURY_START_YEAR % 100;
  const year = Math.trunc(CENTURY_START_YEAR / 100) * 100 + p.year + (p.year < pivot ? 100 : 0);
  const t = timeOf(p, year);
  return t < BigInt(CENTURY_START_MS) ? timeOf(p, year + 100) : t;
}

/**
 * Milliseconds since the epoch of an HTTP date as Tomcat 10.1 reads it, or null when Tomcat
 * would not read it as a date (and so ignores the header that carries it).
 */
export function parseHttpDate(value: string): number | null {
  for (const format of FORMATS) {
    const t = parseWith(value, format);
    // Tomcat's -1 means "unreadable", so a date that is exactly one millisecond before the
    // epoch is read by the next format, as in FastHttpDateFormat (none of the three can spell one).
    if (t !== null && t !== -1n) return Number(t);
  }
  return null;
}

/** An HTTP date (IMF-fixdate) for a time in milliseconds. */
export function formatHttpDate(ms: number): string {
  return new Date(ms).toUTCString();
}
