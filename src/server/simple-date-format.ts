/**
 * java.text.SimpleDateFormat's formatting (Locale.US, the process's time
 * zone), for what AccessLogValve formats with it: `%{format}t` in a pattern
 * and `fileDateFormat` in a file name. Letters are those of the JDK; a text
 * between single quotes is literal and `''` is a quote.
 */

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The pattern letters the JDK defines; any other ASCII letter makes SimpleDateFormat refuse the pattern. */
const LETTERS = 'GyYMLwWDdFEuaHkKhmsSzZX';

type Part = string | { letter: string; count: number };

/** Why SimpleDateFormat refuses `pattern` (as its IllegalArgumentException says), or null. */
export function simpleDateFormatProblem(pattern: string): string | null {
  try {
    parse(pattern);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

function parse(pattern: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i]!;
    if (c === "'") {
      if (pattern[i + 1] === "'") {
        literal += "'";
        i += 2;
        continue;
      }
      // Quoted text runs to the next lone quote; a doubled quote inside it is a quote.
      let j = i + 1;
      for (;;) {
        if (j >= pattern.length) throw new Error(`Unterminated quote in "${pattern}"`);
        if (pattern[j] === "'") {
          if (pattern[j + 1] !== "'") break;
          literal += "'";
          j += 2;
        } else literal += pattern[j++];
      }
      i = j + 1;
      continue;
    }
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      if (!LETTERS.includes(c)) throw new Error(`Illegal pattern character '${c}'`);
      let j = i + 1;
      while (pattern[j] === c) j++;
      if (literal) parts.push(literal);
      literal = '';
      parts.push({ letter: c, count: j - i });
      i = j;
      continue;
    }
    literal += c;
    i++;
  }
  if (literal) parts.push(literal);
  return parts;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function offset(date: Date, style: 'Z' | 'X1' | 'X2' | 'X3'): string {
  const minutes = -date.getTimezoneOffset();
  if (minutes === 0 && style !== 'Z') return 'Z';
  const sign = minutes < 0 ? '-' : '+';
  const h = pad(Math.floor(Math.abs(minutes) / 60), 2);
  const m = pad(Math.abs(minutes) % 60, 2);
  if (style === 'X1') return `${sign}${h}`;
  return style === 'X3' ? `${sign}${h}:${m}` : `${sign}${h}${m}`;
}

function dayOfYear(date: Date): number {
  const y = date.getFullYear();
  return Math.round((Date.UTC(y, date.getMonth(), date.getDate()) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
}

/** Week of year as Locale.US counts it: weeks start on Sunday, week 1 holds January 1st. */
function weekOfYear(date: Date): { week: number; year: number } {
  const y = date.getFullYear();
  // The Saturday ending this week: if it falls in the next year, the week is that year's first.
  const saturday = new Date(y, date.getMonth(), date.getDate() + (6 - date.getDay()));
  if (saturday.getFullYear() > y) return { week: 1, year: y + 1 };
  const jan1 = new Date(y, 0, 1).getDay();
  return { week: Math.floor((dayOfYear(date) - 1 + jan1) / 7) + 1, year: y };
}

function field(date: Date, letter: string, count: number): string {
  switch (letter) {
    case 'G':
      return date.getFullYear() > 0 ? 'AD' : 'BC';
    case 'y':
    case 'Y': {
      const year = letter === 'Y' ? weekOfYear(date).year : date.getFullYear();
      return count === 2 ? pad(year % 100, 2) : pad(year, count);
    }
    case 'M':
    case 'L':
      if (count >= 4) return MONTHS[date.getMonth()]!;
      if (count === 3) return MONTHS[date.getMonth()]!.slice(0, 3);
      return pad(date.getMonth() + 1, count);
    case 'w':
      return pad(weekOfYear(date).week, count);
    case 'W':
      return pad(
        Math.floor((date.getDate() - 1 + new Date(date.getFullYear(), date.getMonth(), 1).getDay()) / 7) + 1,
        count,
      );
    case 'D':
      return pad(dayOfYear(date), count);
    case 'd':
      return pad(date.getDate(), count);
    case 'F':
      return pad(Math.floor((date.getDate() - 1) / 7) + 1, count);
    case 'E':
      return count >= 4 ? DAYS[date.getDay()]! : DAYS[date.getDay()]!.slice(0, 3);
    case 'u':
      return pad(date.getDay() === 0 ? 7 : date.getDay(), count);
    case 'a':
      return date.getHours() < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(date.getHours(), count);
    case 'k':
      return pad(date.getHours() === 0 ? 24 : date.getHours(), count);
    case 'K':
      return pad(date.getHours() % 12, count);
    case 'h':
      return pad(date.getHours() % 12 === 0 ? 12 : date.getHours() % 12, count);
    case 'm':
      return pad(date.getMinutes(), count);
    case 's':
      return pad(date.getSeconds(), count);
    case 'S':
      return pad(date.getMilliseconds(), count);
    case 'z': {
      const minutes = -date.getTimezoneOffset();
      if (minutes === 0) return 'UTC';
      return `GMT${offset(date, 'X3')}`;
    }
    case 'Z':
      return offset(date, 'Z');
    default:
      // 'X'
      return offset(date, count === 1 ? 'X1' : count === 2 ? 'X2' : 'X3');
  }
}

/** A formatter for `pattern`; throws with SimpleDateFormat's reason when Java would refuse the pattern. */
export function simpleDateFormatter(pattern: string): (date: Date) => string {
  const parts = parse(pattern);
  return (date) => {
    let out = '';
    for (const p of parts) out += typeof p === 'string' ? p : field(date, p.letter, p.count);
    return out;
  };
}
