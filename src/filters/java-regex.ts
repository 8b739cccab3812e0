/**
 * Translates java.util.regex patterns to JavaScript for whole-string matching
 * (Matcher.matches()), reporting every construct JavaScript cannot express or
 * expresses differently. A small tokenizer, not string replacement, so escapes
 * and character classes are handled in context.
 */
export interface RegexProblem {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  offset: number;
  length: number;
}

export interface TranslatedRegex {
  javaSource: string;
  /** JavaScript source anchored for whole-string matching; '' when translation failed. */
  source: string;
  flags: string;
  /** True when `source` matches exactly the strings Java's matches() accepts. */
  exact: boolean;
  problems: RegexProblem[];
}

const LINE_TERMINATORS = '\\n\\r\\u0085\\u2028\\u2029';

const POSIX: Record<string, string> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0B\\f\\r',
};
const JAVA_CLASSES: Record<string, string> = {
  javaLowerCase: '\\p{Ll}',
  javaUpperCase: '\\p{Lu}',
  javaWhitespace: '\\s',
  javaDigit: '\\p{Nd}',
  javaLetter: '\\p{L}',
  javaLetterOrDigit: '\\p{L}\\p{Nd}',
  javaAlphabetic: '\\p{Alphabetic}',
};
const SIMPLE_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 't', 'n', 'r', 'f']);
const SYNTAX = new Set([...'\\^$.|?*+()[]{}/-']);

/** The longest Java pattern tollgate translates and runs (found by test/fuzz: see translateJavaRegex). */
export const MAX_PATTERN_LENGTH = 10_000;

/** Translates a Java regex; `source` is '' when any error-severity problem was found. */
export function translateJavaRegex(java: string): TranslatedRegex {
  const problems: RegexProblem[] = [];
  let exact = true;
  let unicode = false;
  let flags = '';
  const err = (code: string, message: string, offset: number, length = 1): void => {
    problems.push({ severity: 'error', code, message, offset, length });
  };
  const warn = (code: string, message: string, offset: number, length = 1): void => {
    problems.push({ severity: 'warning', code, message, offset, length });
    exact = false;
  };

  let out = '';
  let i = 0;
  let inClass = false;
  let classStart = -1;
  let depth = 0;
  let lastAtomEnd = -1;

  // A leading (?i) becomes the JavaScript i flag; other inline flags cannot be expressed.
  const lead = /^\(\?([idmsuxU]+)\)/.exec(java);
  if (lead) {
    for (const f of lead[1]!) {
      if (f === 'i') flags += 'i';
      else if (f === 'u' || f === 'U')
        warn(
          'inline-flag',
          `inline flag (?${f}) has no exact JavaScript equivalent (Unicode case folding)`,
          0,
          lead[0].length,
        );
      else err('inline-flag', `inline flag (?${f}) cannot be expressed in JavaScript`, 0, lead[0].length);
    }
    i = lead[0].length;
  }

  const escape = (start: number): { js: string; next: number } | null => {
    const c = java[start + 1];
    if (c === undefined) {
      err('java-syntax', 'the pattern ends with a lone backslash', start);
      return null;
    }
    if (c === 'Q') {
      const end = java.indexOf('\\E', start + 2);
      const literal = java.slice(start + 2, end < 0 ? java.length : end);
      return { js: [...literal].map(lit).join(''), next: end < 0 ? java.length : end + 2 };
    }
    if (SIMPLE_ESCAPES.has(c)) return { js: '\\' + c, next: start + 2 };
    if (c === 'A') return { js: '^', next: start + 2 };
    if (c === 'z') return { js: '$', next: start + 2 };
    if (c === 'Z') return { js: `(?=(?:\\r\\n|[${LINE_TERMINATORS}])?$)`, next: start + 2 };
    if (c === 'G') {
      err('unsupported', '\\G (end of the previous match) has no JavaScript equivalent', start, 2);
      return null;
    }
    if (c === 'h') return { js: '[ \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]', next: start + 2 };
    if (c === 'H') return { js: '[^ \\t\\xA0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000]', next: start + 2 };
    if (c === 'v') return { js: `[\\x0B\\f${LINE_TERMINATORS}]`, next: start + 2 };
    if (c === 'V') return { js: `[^\\x0B\\f${LINE_TERMINATORS}]`, next: start + 2 };
    if (c === 'R') return { js: `(?:\\r\\n|[\\x0B\\f${LINE_TERMINATORS}])`, next: start + 2 };
    if (c === 'e') return { js: '\\x1B', next: start + 2 };
    if (c === 'a') return { js: '\\x07', next: start + 2 };
    if (c === 'c') return { js: '\\c' + (java[start + 2] ?? ''), next: start + 3 };
    if (c === 'x') {
      if (java[start + 2] === '{') {
        const end = java.indexOf('}', start + 3);
        const hex = java.slice(start + 3, end);
        if (end < 0 || !/^[0-9a-fA-F]{1,6}$/.test(hex)) {
          err('java-syntax', 'malformed \\x{...} escape', start, 2);
          return null;
        }
        unicode = true;
        return { js: `\\u{${hex}}`, next: end + 1 };
      }
      const hex = java.slice(start + 2, start + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) {
        err('java-syntax', 'malformed \\x escape: two hex digits are needed', start, 2);
        return null;
      }
      return { js: '\\x' + hex, next: start + 4 };
    }
    if (c === 'u') {
      const hex = java.slice(start + 2, start + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        err('java-syntax', 'malformed \\u escape: four hex digits are needed', start, 2);
        return null;
      }
      return { js: '\\u' + hex, next: start + 6 };
    }
    if (c === '0') {
      const m = /^[0-7]{1,3}/.exec(java.slice(start + 2));
      if (!m || parseInt(m[0], 8) > 0o377) {
        err('java-syntax', 'malformed octal escape \\0', start, 2);
        return null;
      }
      return { js: '\\x' + parseInt(m[0], 8).toString(16).padStart(2, '0'), next: start + 2 + m[0].length };
    }
    if (/[1-9]/.test(c)) {
      if (inClass) {
        err('java-syntax', `\\${c} inside a character class is not a valid escape`, start, 2);
        return null;
      }
      return { js: '\\' + c, next: start + 2 };
    }
    if (c === 'k') {
      const m = /^<([A-Za-z][A-Za-z0-9]*)>/.exec(java.slice(start + 2));
      if (!m) {
        err('java-syntax', 'malformed named back-reference \\k<name>', start, 2);
        return null;
      }
      return { js: `\\k<${m[1]}>`, next: start + 2 + m[0].length };
    }
    if (c === 'p' || c === 'P') {
      const m = /^\{([A-Za-z_]+)\}/.exec(java.slice(start + 2)) ?? /^([A-Za-z])/.exec(java.slice(start + 2));
      if (!m) {
        err('java-syntax', `malformed \\${c} property`, start, 2);
        return null;
      }
      const name = m[1]!;
      const next = start + 2 + m[0].length;
      const negate = c === 'P';
      const posix = POSIX[name.replace(/^Is/, '')];
      if (posix) {
        if (inClass && negate) {
          err(
            'unsupported',
            `\\P{${name}} inside a character class is not translated; negate the whole class instead`,
            start,
            next - start,
          );
          return null;
        }
        return { js: inClass ? posix : `[${negate ? '^' : ''}${posix}]`, next };
      }
      const javaClass = JAVA_CLASSES[name];
      if (javaClass) {
        unicode = true;
        warn(
          'java-class',
          `\\${c}{${name}} follows Java's Character.is${name.slice(4)} rules; tollgate uses the Unicode class ${javaClass}, which may differ for a few characters`,
          start,
          next - start,
        );
        return { js: inClass ? javaClass : `[${negate ? '^' : ''}${javaClass}]`, next };
      }
      if (/^(L[ultmo]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?)$/.test(name)) {
        unicode = true;
        return { js: `\\${c}{${name}}`, next };
      }
      const script = /^Is([A-Z][a-z]+)$/.exec(name);
      if (script) {
        unicode = true;
        return { js: `\\${c}{Script=${script[1]}}`, next };
      }
      err('unsupported', `\\${c}{${name}} has no JavaScript equivalent`, start, next - start);
      return null;
    }
    if (/[A-Za-z]/.test(c)) {
      err(
        'java-syntax',
        `\\${c} is not a valid Java escape: Pattern.compile throws, and Tomcat does not start the filter`,
        start,
        2,
      );
      return null;
    }
    return { js: lit(c), next: start + 2 };
  };

  while (i < java.length) {
    const c = java[i]!;
    if (inClass) {
      if (c === '\\') {
        const e = escape(i);
        if (!e) {
          i += 2;
          continue;
        }
        out += e.js;
        i = e.next;
      } else if (c === '[') {
        err(
          'unsupported',
          'nested character classes (Java unions) are not translated; list the characters in one class',
          i,
        );
        i++;
      } else if (c === '&' && java[i + 1] === '&') {
        err('unsupported', 'character class intersection (&&) has no JavaScript equivalent', i, 2);
        i += 2;
      } else if (c === ']' && i > classStart + 1 && !(i === classStart + 2 && java[classStart + 1] === '^')) {
        out += ']';
        inClass = false;
        lastAtomEnd = out.length;
        i++;
      } else {
        out += c === '/' ? '\\/' : c === ']' ? '\\]' : c;
        i++;
      }
      continue;
    }
    switch (c) {
      case '\\': {
        const e = escape(i);
        if (!e) {
          i += 2;
          break;
        }
        out += e.js;
        i = e.next;
        lastAtomEnd = out.length;
        break;
      }
      case '[':
        inClass = true;
        classStart = i;
        out += '[';
        i++;
        break;
      case '(': {
        const rest = java.slice(i);
        if (rest.startsWith('(?>')) {
          err('unsupported', 'atomic groups (?>...) have no JavaScript equivalent', i, 3);
          out += '(?:';
          i += 3;
        } else if (/^\(\?[idmsuxU-]+[:)]/.test(rest)) {
          const m = /^\(\?[idmsuxU-]+[:)]/.exec(rest)!;
          err(
            'inline-flag',
            `inline flags ${m[0]} inside the pattern cannot be expressed in JavaScript`,
            i,
            m[0].length,
          );
          out += m[0].endsWith(':') ? '(?:' : '';
          i += m[0].length;
          if (!m[0].endsWith(':')) break;
        } else if (/^\(\?(<[A-Za-z]|[:=!]|<[=!])/.test(rest)) {
          const m = /^\(\?(<[A-Za-z][A-Za-z0-9]*>|[:=!]|<[=!])/.exec(rest);
          if (!m) {
            err('java-syntax', 'malformed group', i, 2);
            i += 2;
            break;
          }
          out += m[0];
          i += m[0].length;
        } else if (rest.startsWith('(?')) {
          err('java-syntax', 'unknown group construct', i, 2);
          i += 2;
          break;
        } else {
          out += '(';
          i++;
        }
        depth++;
        break;
      }
      case ')':
        if (depth === 0) {
          err('java-syntax', 'unmatched closing parenthesis', i);
          i++;
          break;
        }
        depth--;
        out += ')';
        lastAtomEnd = out.length;
        i++;
        break;
      case '{': {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(java.slice(i));
        if (!m || lastAtomEnd !== out.length) {
          err('java-syntax', 'illegal repetition: "{" must follow something to repeat and hold {n}, {n,} or {n,m}', i);
          i++;
          break;
        }
        if (m[3] && Number(m[3]) < Number(m[1])) err('java-syntax', `illegal repetition range ${m[0]}`, i, m[0].length);
        out += m[0];
        i += m[0].length;
        // A possessive exact count ({n}+) cannot backtrack anyway: it is plain {n}.
        if (m[2] === undefined && java[i] === '+') i++;
        i = quantifierSuffix(i);
        break;
      }
      case '*':
      case '+':
      case '?':
        if (lastAtomEnd !== out.length) {
          err('java-syntax', `dangling meta character "${c}": there is nothing to repeat`, i);
          i++;
          break;
        }
        out += c;
        i = quantifierSuffix(i + 1);
        break;
      case '.':
        out += `[^${LINE_TERMINATORS}]`;
        lastAtomEnd = out.length;
        i++;
        break;
      case '$':
        out += `(?=(?:\\r\\n|[${LINE_TERMINATORS}])?$)`;
        i++;
        break;
      case '|':
      case '^':
        out += c;
        i++;
        break;
      case '/':
        out += '\\/';
        lastAtomEnd = out.length;
        i++;
        break;
      default:
        out += c;
        lastAtomEnd = out.length;
        i++;
    }
  }
  if (inClass) err('java-syntax', 'unclosed character class', classStart);
  if (depth > 0) err('java-syntax', 'unclosed group', java.length - 1);

  function quantifierSuffix(at: number): number {
    if (java[at] === '+') {
      err(
        'unsupported',
        'possessive quantifiers (*+, ++, ?+, {n}+) have no JavaScript equivalent; use a greedy quantifier',
        at - 1,
        2,
      );
      return at + 1;
    }
    if (java[at] === '?') {
      out += '?';
      return at + 1;
    }
    lastAtomEnd = -1;
    return at;
  }

  if (unicode) flags += 'u';
  let source = `^(?:${out})$`;
  // V8 compiles nested repetition in time quadratic in its count: 100 KB of "(a+)+" took 12-14 s
  // before "Regular expression too large" where the stack is large (worker threads), 40 ms of stack
  // overflow elsewhere; 10,000 characters stay under 0.2 s. Address patterns are far shorter.
  if (java.length > MAX_PATTERN_LENGTH && !problems.some((p) => p.severity === 'error')) {
    err(
      'unsupported',
      `the pattern is ${java.length} characters long; tollgate runs patterns of up to ${MAX_PATTERN_LENGTH}`,
      0,
      java.length,
    );
  }
  if (!problems.some((p) => p.severity === 'error')) {
    let rx: RegExp | null = null;
    try {
      rx = new RegExp(source, flags);
    } catch (e) {
      err('java-syntax', `invalid pattern: ${(e as Error).message}`, 0, java.length);
    }
    // V8 compiles a pattern on its first use, and only then refuses one too large for it
    // ("Regular expression too large"): Java accepts those, tollgate could not run them.
    try {
      rx?.test('');
    } catch (e) {
      err(
        'unsupported',
        `the JavaScript engine cannot compile the translated pattern (${(e as Error).message.replace(/^[^:]*: \/[\s\S]*\/: /, '')})`,
        0,
        java.length,
      );
    }
  }
  if (problems.some((p) => p.severity === 'error')) {
    source = '';
    exact = false;
  }
  return { javaSource: java, source, flags, exact, problems };
}

function lit(c: string): string {
  return SYNTAX.has(c) ? '\\' + c : c;
}
