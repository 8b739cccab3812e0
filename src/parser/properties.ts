import type { Diagnostic, Span } from '../model/index.js';

/**
 * Resolves `${name}` and `${name:-default}` references the way Tomcat's
 * digester does for server.xml and context files: unknown names without a
 * default stay as written, and resolution repeats (at most 20 rounds) while
 * the value still contains references.
 */
export function resolveProperties(
  value: string,
  properties: Record<string, string>,
): { value: string; unresolved: string[] } {
  const unresolved: string[] = [];
  let current = value;
  for (let round = 0; round < 20 && current.includes('${'); round++) {
    let out = '';
    let prev = 0;
    let pos: number;
    while ((pos = current.indexOf('${', prev)) >= 0) {
      const end = current.indexOf('}', pos);
      if (end < 0) break;
      out += current.slice(prev, pos);
      let name = current.slice(pos + 2, end);
      let v = lookup(properties, name);
      if (v === undefined) {
        const col = name.indexOf(':-');
        if (col >= 0) {
          const fallback = name.slice(col + 2);
          name = name.slice(0, col);
          v = lookup(properties, name) ?? fallback;
        } else {
          if (!unresolved.includes(name)) unresolved.push(name);
          v = '${' + name + '}';
        }
      }
      out += v;
      prev = end + 1;
    }
    out += current.slice(prev);
    if (out === current) break;
    current = out;
  }
  return { value: current, unresolved };
}

function lookup(properties: Record<string, string>, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(properties, name) ? properties[name] : undefined;
}

/** A diagnostic for each reference that had no value. */
export function unresolvedDiagnostics(names: string[], span: Span): Diagnostic[] {
  return names.map((name) => ({
    ruleId: 'server-unresolved-property',
    severity: 'warning' as const,
    message: `\${${name}} has no value (not catalina.base, catalina.home, a system property or in conf/catalina.properties): Tomcat keeps the text "\${${name}}" literally.`,
    span,
  }));
}

/** Parses a Java .properties file (enough of the format for conf/catalina.properties). */
export function parseJavaProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const logical: string[] = [];
  let pending = '';
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = pending + rawLine.replace(/^\s+/, '');
    let backslashes = 0;
    for (let i = line.length - 1; i >= 0 && line[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) {
      pending = line.slice(0, -1);
      continue;
    }
    pending = '';
    logical.push(line);
  }
  for (const line of logical) {
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^((?:\\.|[^=:\s\\])*)\s*[=:\s]\s*(.*)$/.exec(line);
    const key = unescape(m ? m[1]! : line);
    out[key] = unescape(m ? m[2]! : '');
  }
  return out;
}

function unescape(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, c: string) => {
    if (c.length === 5) return String.fromCharCode(parseInt(c.slice(1), 16));
    return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
  });
}
