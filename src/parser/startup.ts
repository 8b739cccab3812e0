import { realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { FileScope, JvmProperty, Located, SetenvFile, SourceFile } from '../model/index.js';
import { fileScope, listInScope, readTextInScope } from './files.js';
import { LineIndex } from './lines.js';
import { parseSetenv } from './setenv.js';

/** The variables whose `-D` words reach the JVM command line (catalina.sh expands them unquoted). */
const OPTION_VARIABLES = new Set(['CATALINA_OPTS', 'JAVA_OPTS']);

/** Start-up files are small; anything larger is not one (and is not read whole). */
const MAX_BYTES = 1 << 20;

/** Where a distribution keeps how its Tomcat service starts, and what the audit found there. */
export interface StartupConfig {
  /** Every `-D` option and UMASK from all the files, in the order they apply (the JVM keeps the last of a name). */
  setenv: SetenvFile | null;
  /** The files read, for findings' source lines. */
  sources: SourceFile[];
  /** Each file looked for, and whether it was there: the evidence of a start-up control. */
  examined: { file: string; found: boolean }[];
}

export interface StartupOptions {
  /** The directory that stands for /etc (`--etc`; default /etc, with systemd's unit folders under /lib and /usr/lib). */
  etc?: string;
}

/** A start-up file's text through the file-access layer (regular files in the scope's roots, bounded), or null. */
function read(path: string, scope: FileScope): string | null {
  const r = readTextInScope(path, scope);
  return 'text' in r ? r.text : null;
}

const same = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
};

/** Words of a systemd value: blank-separated, double or single quotes removed, with each character's offset. */
function unitWords(text: string, from: number, to: number): { text: string; at: number[] }[] {
  const out: { text: string; at: number[] }[] = [];
  let i = from;
  while (i < to) {
    while (i < to && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= to) break;
    const w = { text: '', at: [] as number[] };
    while (i < to && text[i] !== ' ' && text[i] !== '\t') {
      const q = text[i];
      if (q === '"' || q === "'") {
        i++;
        while (i < to && text[i] !== q) {
          if (text[i] === '\\' && i + 1 < to) i++;
          w.text += text[i];
          w.at.push(i++);
        }
        i++;
      } else {
        w.text += text[i];
        w.at.push(i++);
      }
    }
    if (w.text) out.push(w);
  }
  return out;
}

/** The assignments of one `VAR=value` word of a unit's Environment=, as setenv entries. */
function assignment(
  w: { text: string; at: number[] },
  lines: LineIndex,
  into: { properties: JvmProperty[]; umask: Located<string> | null; resets: Set<string> },
): void {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.text);
  if (!m) return;
  const variable = m[1]!;
  const from = m[0].length;
  const end = (k: number): number => (k > 0 ? w.at[k - 1]! + 1 : w.at[0]!);
  const span = (s: number, e: number) => lines.span(w.at[s] ?? end(e), end(e));
  if (variable === 'UMASK') {
    into.umask = { value: w.text.slice(from), span: span(from, w.text.length) };
    return;
  }
  if (variable === 'SECURITY_MANAGER') {
    if (w.text.slice(from).trim() === 'true') into.properties.push(securityManager(span(0, w.text.length)));
    return;
  }
  if (!OPTION_VARIABLES.has(variable)) return;
  // systemd expands no $VAR in Environment=: a later assignment of the variable replaces it.
  into.properties = into.properties.filter((p) => p.variable !== variable);
  into.resets.add(variable);
  const re = /\S+/g;
  re.lastIndex = from;
  for (let t = re.exec(w.text); t; t = re.exec(w.text)) {
    const word = t[0];
    if (!word.startsWith('-D') || word.length === 2) continue;
    const s = t.index;
    const e = s + word.length;
    const eq = word.indexOf('=');
    const nameEnd = eq < 0 ? e : s + eq;
    const valueStart = eq < 0 ? e : s + eq + 1;
    into.properties.push({
      name: { value: w.text.slice(s + 2, nameEnd), span: span(s + 2, nameEnd) },
      value: { value: w.text.slice(valueStart, e), span: valueStart < e ? span(valueStart, e) : span(e, e) },
      variable,
      span: span(s, e),
    });
  }
}

/**
 * `SECURITY_MANAGER=true` (Debian's /etc/default/tomcat10, RHEL's tomcat.conf) makes the service
 * start catalina.sh with -security, which adds -Djava.security.manager: recorded as that option,
 * at the assignment.
 */
function securityManager(span: JvmProperty['span']): JvmProperty {
  return {
    name: { value: 'java.security.manager', span },
    value: { value: '', span },
    variable: 'SECURITY_MANAGER',
    span,
  };
}

/** A systemd unit's Environment= assignments and EnvironmentFile= paths. */
export function parseSystemdUnit(text: string, file: string): { setenv: SetenvFile; environmentFiles: string[] } {
  const lines = new LineIndex(file, text);
  const into = { properties: [] as JvmProperty[], umask: null as Located<string> | null, resets: new Set<string>() };
  const environmentFiles: string[] = [];
  const re = /^[ \t]*(Environment|EnvironmentFile)[ \t]*=[ \t]*(.*)$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const valueAt = m.index + m[0].length - m[2]!.length;
    if (m[1] === 'EnvironmentFile') {
      const path = m[2]!.trim().replace(/^-/, '');
      if (path) environmentFiles.push(path);
      continue;
    }
    for (const w of unitWords(text, valueAt, valueAt + m[2]!.length)) assignment(w, lines, into);
  }
  return {
    setenv: {
      file,
      properties: into.properties,
      umask: into.umask,
      ...(into.resets.size ? { resets: [...into.resets] } : {}),
    },
    environmentFiles,
  };
}

/** A shell environment file (/etc/default/tomcat10, /etc/sysconfig/tomcat): setenv.sh's reading, and SECURITY_MANAGER. */
export function parseEnvironmentFile(text: string, file: string): SetenvFile {
  const { setenv } = parseSetenv(text, file);
  const lines = new LineIndex(file, text);
  const re = /^[ \t]*(?:export[ \t]+)?SECURITY_MANAGER=(["']?)([A-Za-z]*)\1/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const at = m.index + m[0].indexOf('SECURITY_MANAGER');
    if (m[2] === 'true') setenv.properties.push(securityManager(lines.span(at, m.index + m[0].length)));
    else setenv.properties = setenv.properties.filter((p) => p.variable !== 'SECURITY_MANAGER');
  }
  return setenv;
}

/**
 * The start-up configuration of a Tomcat service, in the order it applies: the systemd unit's
 * Environment= (and drop-ins), its EnvironmentFile= files, /etc/default/<name> and
 * /etc/sysconfig/<name> (which Debian's and RHEL's start scripts source), then bin/setenv.sh (which
 * catalina.sh sources last). The unit is the one whose CATALINA_BASE is this base, or named after
 * the base's folder (tomcat10 for /var/lib/tomcat10); the service names are the base's and home's
 * folder names that look like a Tomcat service's.
 */
export function readStartup(
  base: string,
  home: string,
  setenv: SetenvFile | null,
  opts: StartupOptions = {},
): StartupConfig {
  const etc = opts.etc ?? '/etc';
  const mapEtc = (p: string): string => (opts.etc && p.startsWith('/etc/') ? join(opts.etc, p.slice(5)) : p);
  const names = [...new Set([basename(base), basename(home)].filter((n) => /^tomcat\d*$/.test(n)))];
  const unitDirs = [
    join(etc, 'systemd', 'system'),
    ...(opts.etc ? [] : ['/lib/systemd/system', '/usr/lib/systemd/system']),
  ];
  // Only where start-up files live (the /etc tree or --etc, systemd's unit folders) and the base and home: an
  // EnvironmentFile= naming anything else (/proc/self/environ) is not read, and no link leads out of them.
  const scope = fileScope([etc, ...unitDirs, base, home], { maxFileBytes: MAX_BYTES });
  const parts: SetenvFile[] = [];
  const sources: SourceFile[] = [];
  const examined: { file: string; found: boolean }[] = [];
  const seen = new Set<string>();
  const envFiles: string[] = [];
  let unitFound = false;
  for (const dir of unitDirs) {
    const entries = listInScope(dir, scope);
    for (const entry of entries.filter((e) => /^tomcat\d*\.service$/.test(e)).sort()) {
      const path = join(dir, entry);
      const text = read(path, scope);
      if (text === null) continue;
      const unitBase = /^[ \t]*Environment[ \t]*=.*\bCATALINA_BASE=([^"'\s]+)/m.exec(text)?.[1];
      const ours = unitBase ? same(mapEtc(unitBase), base) : names.includes(entry.replace(/\.service$/, ''));
      if (!ours || seen.has(entry)) continue;
      // A unit in /etc/systemd/system overrides the package's of the same name.
      seen.add(entry);
      unitFound = true;
      const files = [path];
      for (const d of unitDirs) {
        const drop = join(d, `${entry}.d`);
        for (const f of listInScope(drop, scope)
          .filter((f) => f.endsWith('.conf'))
          .sort())
          files.push(join(drop, f));
      }
      for (const f of files) {
        const t = f === path ? text : read(f, scope);
        if (t === null) continue;
        const unit = parseSystemdUnit(t, f);
        examined.push({ file: f, found: true });
        sources.push({ path: f, text: t, encoding: 'utf-8', bom: false });
        parts.push(unit.setenv);
        envFiles.push(...unit.environmentFiles.map(mapEtc));
      }
    }
  }
  if (!unitFound && names.length > 0) examined.push({ file: join(unitDirs[0]!, `${names[0]}.service`), found: false });
  for (const n of names) envFiles.push(join(etc, 'default', n), join(etc, 'sysconfig', n));
  for (const f of [...new Set(envFiles)]) {
    const text = read(f, scope);
    examined.push({ file: f, found: text !== null });
    if (text === null) continue;
    sources.push({ path: f, text, encoding: 'utf-8', bom: false });
    parts.push(parseEnvironmentFile(text, f));
  }
  if (setenv) {
    parts.push(setenv);
    examined.push({ file: setenv.file, found: true });
  } else examined.push({ file: join(base, 'bin', 'setenv.sh'), found: false });
  if (parts.length === 0) return { setenv: null, sources, examined };
  const umask = parts.reduce<Located<string> | null>((u, p) => p.umask ?? u, null);
  // A file that replaces JAVA_OPTS or CATALINA_OPTS drops what the files before it put there.
  let properties: JvmProperty[] = [];
  for (const p of parts) {
    if (p.resets?.length) properties = properties.filter((x) => !p.resets!.includes(x.variable));
    properties.push(...p.properties);
  }
  return {
    setenv: { file: (setenv ?? parts[parts.length - 1]!).file, properties, umask },
    sources,
    examined,
  };
}
