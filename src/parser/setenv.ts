import type { JvmProperty, Located, SetenvFile, SourceFile } from '../model/index.js';
import { LineIndex } from './lines.js';

/** The variables catalina.sh puts on the JVM command line unquoted (so their words split on blanks). */
const OPTION_VARIABLES = new Set(['CATALINA_OPTS', 'JAVA_OPTS']);

/** A shell word after quote removal, with the file offset of each of its characters. */
interface Word {
  text: string;
  at: number[];
}

/**
 * Splits shell text into words as sh does for simple commands: blanks, `;`, `&`, `|`, parentheses and
 * line ends separate words; quotes and backslashes are removed; `#` at the start of a word starts a
 * comment. Expansions (`$VAR`, `$(...)`) are kept as written: tollgate judges what the file itself adds.
 */
function words(text: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (
      c === ' ' ||
      c === '\t' ||
      c === '\n' ||
      c === '\r' ||
      c === ';' ||
      c === '&' ||
      c === '|' ||
      c === '(' ||
      c === ')'
    ) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < n && text[i] !== '\n') i++;
      continue;
    }
    const w: Word = { text: '', at: [] };
    while (i < n) {
      const d = text[i]!;
      if (
        d === ' ' ||
        d === '\t' ||
        d === '\n' ||
        d === '\r' ||
        d === ';' ||
        d === '&' ||
        d === '|' ||
        d === '(' ||
        d === ')'
      )
        break;
      if (d === "'") {
        i++;
        while (i < n && text[i] !== "'") {
          w.text += text[i];
          w.at.push(i++);
        }
        i++;
      } else if (d === '"') {
        i++;
        while (i < n && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < n && '$`"\\\n'.includes(text[i + 1]!)) i++;
          w.text += text[i];
          w.at.push(i++);
        }
        i++;
      } else if (d === '\\' && i + 1 < n) {
        if (text[i + 1] !== '\n') {
          w.text += text[i + 1];
          w.at.push(i + 1);
        }
        i += 2;
      } else {
        w.text += d;
        w.at.push(i++);
      }
    }
    if (w.text !== '') out.push(w);
  }
  return out;
}

/**
 * Reads bin/setenv.sh as catalina.sh uses it: the `-D` options each assignment to CATALINA_OPTS or
 * JAVA_OPTS adds (the value splits on blanks, as catalina.sh expands it unquoted) and UMASK. An
 * assignment that does not expand the variable's own value replaces it: the effective options are
 * what the last such assignment and the appends after it build. An assignment inside an `if` counts
 * as made: tollgate cannot know the condition.
 */
export function parseSetenv(input: string | Uint8Array, file: string): { setenv: SetenvFile; source: SourceFile } {
  const text = typeof input === 'string' ? input : Buffer.from(input).toString('utf8');
  const source: SourceFile = { path: file, text, encoding: 'utf-8', bom: false };
  const lines = new LineIndex(file, text);
  const properties: JvmProperty[] = [];
  let umask: Located<string> | null = null;
  const resets = new Set<string>();
  for (const w of words(text)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.text);
    if (!m) continue;
    const variable = m[1]!;
    const from = m[0].length;
    const end = (k: number): number => (k > 0 ? w.at[k - 1]! + 1 : (w.at[from] ?? w.at[w.at.length - 1]! + 1));
    if (variable === 'UMASK') {
      umask = { value: w.text.slice(from), span: lines.span(w.at[from] ?? end(w.text.length), end(w.text.length)) };
      continue;
    }
    if (!OPTION_VARIABLES.has(variable)) continue;
    const value = w.text;
    // Without $VAR / ${VAR} the assignment replaces the variable: the options it had are gone.
    if (!new RegExp(`\\$(\\{)?${variable}(?![A-Za-z0-9_])`).test(value.slice(from))) {
      for (let k = properties.length - 1; k >= 0; k--)
        if (properties[k]!.variable === variable) properties.splice(k, 1);
      resets.add(variable);
    }
    const re = /\S+/g;
    re.lastIndex = from;
    for (let t = re.exec(value); t; t = re.exec(value)) {
      const word = t[0];
      if (!word.startsWith('-D') || word.length === 2) continue;
      const s = t.index;
      const e = s + word.length;
      const eq = word.indexOf('=');
      const nameEnd = eq < 0 ? e : s + eq;
      const valueStart = eq < 0 ? e : s + eq + 1;
      properties.push({
        name: { value: value.slice(s + 2, nameEnd), span: lines.span(w.at[s + 2]!, end(nameEnd)) },
        value: {
          value: value.slice(valueStart, e),
          span: valueStart < e ? lines.span(w.at[valueStart]!, end(e)) : lines.span(end(e), end(e)),
        },
        variable,
        span: lines.span(w.at[s]!, end(e)),
      });
    }
  }
  return { setenv: { file, properties, umask, ...(resets.size ? { resets: [...resets] } : {}) }, source };
}

/** The value the JVM ends up with for a `-D` property (the last option wins), or undefined. */
export function jvmProperty(setenv: SetenvFile, name: string): JvmProperty | undefined {
  for (let i = setenv.properties.length - 1; i >= 0; i--)
    if (setenv.properties[i]!.name.value === name) return setenv.properties[i];
  return undefined;
}
