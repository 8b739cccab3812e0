import { isAbsolute, join, resolve } from 'node:path';
import type { CatalinaBase, ConfigElement, FileScope, Located, Span } from '../model/index.js';
import { fileScope, listInScope, readTextInScope, scopeOf, statInScope } from '../parser/files.js';
import { allValves, simpleName } from './hardening.js';

/** The base's file scope (src/parser/files.ts), for the audit, which reads through this module. */
export { scopeOf };
import type { Accounts, Profile } from './config.js';

/**
 * What the benchmarks ask of a file or folder on disk, from stat(2) (symbolic links followed, as their
 * `find -follow`, within the base's scope: src/parser/files.ts; a link out of it is not looked at).
 */
export interface Access {
  path: string;
  /** Permission bits (mode & 0o7777). */
  mode: number;
  uid: number;
  gid: number;
  dir: boolean;
}

export function accessOf(path: string, scope: FileScope): Access | null {
  const s = statInScope(path, scope);
  return s ? { path, mode: s.mode & 0o7777, uid: s.uid, gid: s.gid, dir: s.isDirectory() } : null;
}

/** The files directly in a folder (its `find -maxdepth 1 -type f`, links followed within the scope). */
export function filesIn(dir: string, scope: FileScope): Access[] {
  return listInScope(dir, scope)
    .map((n) => accessOf(join(dir, n), scope))
    .filter((a): a is Access => a !== null && !a.dir);
}

/** Whether the files rules should look at the disk: the input is a whole CATALINA_BASE (it has conf/), not one file. */
export function isWholeBase(base: CatalinaBase): boolean {
  const conf = accessOf(join(base.base, 'conf'), scopeOf(base));
  return conf !== null && conf.dir;
}

/** `0o640` -> `640`. */
export const octal = (mode: number): string => mode.toString(8).padStart(3, '0');

/** A path a value names, as Tomcat resolves it: `${catalina.base}` and the like from the base's properties, then against CATALINA_BASE. */
export function resolveBasePath(base: CatalinaBase, value: string): string {
  const expanded = value.replace(/\$\{([^}]+)\}/g, (m, name: string) => base.properties[name] ?? m);
  return isAbsolute(expanded) ? expanded : resolve(base.base, expanded);
}

/** The accounts of the host, by id (/etc/passwd and /etc/group, read once per run). */
let names: { users: Map<number, string>; groups: Map<number, string> } | null = null;

function table(file: string): Map<number, string> {
  const out = new Map<number, string>();
  // The host's own account tables, not a user's file: read in their own scope.
  const read = readTextInScope(file, fileScope(['/etc']));
  if (!('text' in read)) return out;
  const text = read.text;
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length >= 3 && /^\d+$/.test(f[2]!) && !out.has(Number(f[2]))) out.set(Number(f[2]), f[0]!);
  }
  return out;
}

export function accountNames(): { users: Map<number, string>; groups: Map<number, string> } {
  names ??= { users: table('/etc/passwd'), groups: table('/etc/group') };
  return names;
}

/** The names a profile expects (config `accounts` over the benchmark's own names). */
export function expectedAccounts(accounts: Accounts, profile: Profile): Required<Accounts> {
  return {
    // CIS names a dedicated administration account; the STIG (and Tomcat's security how-to) root.
    admin: accounts.admin ?? (profile === 'cis' ? 'tomcat_admin' : 'root'),
    service: accounts.service ?? 'tomcat',
    group: accounts.group ?? 'tomcat',
  };
}

/** One file or folder a benchmark protects, and what it asks of it. */
export interface Protected {
  /** The control (`cis-tomcat-10.1:4.3`) a finding fails. */
  control: string;
  path: string;
  /** How the finding names it: `$CATALINA_BASE/conf`. */
  label: string;
  /** Permission bits the control forbids (`0o027`: group write, anything for others); none: no mode asked. */
  forbidden?: number;
  /** The mode the benchmark writes, for the message (`750`, `g-w,o-rwx`). */
  asked?: string;
  /** Whose the path must be (with the group); none: no owner asked. */
  owner?: 'admin' | 'service';
  /** What names the path in the configuration, when something does (an AccessLogValve's directory). */
  at?: Span;
  /** The files directly inside the folder, not the folder itself. */
  each?: 'file' | 'jar';
}

const CIS = 'cis-tomcat-10.1:';
const STIG = 'stig-tomcat:';

/** Every path the profile's benchmark protects in this base (CIS 4.x, 7.4, 7.6; STIG V-222943-48, V-222967, V-222986-91). */
export function protectedPaths(base: CatalinaBase, profile: Profile): Protected[] {
  const b = base.base;
  const h = base.home;
  const conf = join(b, 'conf');
  if (profile === 'cis') {
    const dir = (control: string, path: string, label: string, forbidden: number): Protected => ({
      control: CIS + control,
      path,
      label,
      forbidden,
      asked: forbidden === 0o027 ? 'g-w,o-rwx' : 'o-rwx',
      owner: 'admin',
    });
    const file = (control: string, name: string, forbidden = 0o177): Protected => ({
      control: CIS + control,
      path: join(conf, name),
      label: `conf/${name}`,
      forbidden,
      asked: forbidden === 0o177 ? '600' : '400',
      owner: 'admin',
    });
    const out: Protected[] = [
      dir('4.1', h, '$CATALINA_HOME', 0o027),
      dir('4.2', b, '$CATALINA_BASE', 0o027),
      dir('4.3', conf, '$CATALINA_BASE/conf', 0o027),
      dir('4.4', join(b, 'logs'), '$CATALINA_BASE/logs', 0o007),
      dir('4.5', join(b, 'temp'), '$CATALINA_BASE/temp', 0o007),
      dir('4.6', join(h, 'bin'), '$CATALINA_HOME/bin', 0o027),
      ...[...new Set(base.hosts.map((x) => x.appBase))].map((a) =>
        dir('4.7', a, a === join(b, 'webapps') ? '$CATALINA_BASE/webapps' : a, 0o027),
      ),
      file('4.8', 'catalina.properties'),
      file('4.9', 'catalina.policy'),
      file('4.10', 'context.xml'),
      file('4.11', 'logging.properties'),
      file('4.12', 'server.xml'),
      file('4.13', 'tomcat-users.xml'),
      file('4.14', 'web.xml', 0o377),
      file('4.15', 'jaspic-providers.xml'),
    ];
    for (const v of accessLogDirectories(base))
      out.push({
        ...dir('7.4', v.path, `the AccessLogValve directory ${v.path}`, 0o007),
        ...(v.at ? { at: v.at } : {}),
      });
    for (const v of loggingDirectories(base))
      out.push({ ...dir('7.6', v.path, `the logging.properties directory ${v.path}`, 0o007), at: v.at });
    return out;
  }
  if (profile === 'stig') {
    const s = (control: string, path: string, label: string, rest: Partial<Protected>): Protected => ({
      control: STIG + control,
      path,
      label,
      ...rest,
    });
    const out: Protected[] = [
      s('V-222943', join(b, 'logs'), '$CATALINA_BASE/logs', { forbidden: 0o027, asked: '750' }),
      s('V-222944', join(b, 'logs'), 'files in $CATALINA_BASE/logs', { forbidden: 0o137, asked: '640', each: 'file' }),
      s('V-222945', conf, 'files in $CATALINA_BASE/conf', { forbidden: 0o137, asked: '640', each: 'file' }),
      s('V-222946', conf, '$CATALINA_BASE/conf', { forbidden: 0o027, asked: '750' }),
      s('V-222947', join(h, 'bin'), 'jar files in $CATALINA_HOME/bin', { forbidden: 0o137, asked: '640', each: 'jar' }),
      s('V-222948', join(h, 'bin'), '$CATALINA_HOME/bin', { forbidden: 0o027, asked: '750' }),
      s('V-222990', join(b, 'temp'), '$CATALINA_BASE/temp', { forbidden: 0o027, asked: '750' }),
      s('V-222986', h, '$CATALINA_HOME', { owner: 'admin' }),
      s('V-222987', conf, '$CATALINA_BASE/conf', { owner: 'admin' }),
      s('V-222988', join(b, 'logs'), '$CATALINA_BASE/logs', { owner: 'service' }),
      s('V-222989', join(b, 'temp'), '$CATALINA_BASE/temp', { owner: 'service' }),
      s('V-222991', join(b, 'work'), '$CATALINA_BASE/work', { owner: 'service' }),
    ];
    for (const k of keystores(base))
      out.push(
        s('V-222967', k.path, `the keystore ${k.path}`, { forbidden: 0o137, asked: '640', owner: 'admin', at: k.at }),
      );
    return out;
  }
  return [];
}

/** Each AccessLogValve's directory (default `logs`, relative to CATALINA_BASE, as AccessLogValve resolves it). */
function accessLogDirectories(base: CatalinaBase): { path: string; at?: Span }[] {
  return allValves(base)
    .filter((v) => simpleName(v).endsWith('AccessLogValve'))
    .map((v) => {
      const d = v.attributes['directory'];
      return { path: resolveBasePath(base, d?.value.trim() || 'logs'), ...(d ? { at: d.span } : {}) };
    });
}

/** Each `<handler>.directory` of conf/logging.properties and the applications' logging.properties. */
function loggingDirectories(base: CatalinaBase): { path: string; at: Span }[] {
  const files = [base.loggingProperties, ...base.hosts.flatMap((x) => x.contexts.map((c) => c.loggingProperties))];
  const out: { path: string; at: Span }[] = [];
  for (const f of files) {
    for (const e of f?.entries ?? [])
      if (e.key.value.endsWith('.directory') && e.value.value.trim() !== '')
        out.push({ path: resolveBasePath(base, e.value.value.trim()), at: e.value.span });
  }
  return out;
}

/** The key stores of the TLS connectors (certificateKeystoreFile, or the connector's keystoreFile), resolved against CATALINA_BASE. */
function keystores(base: CatalinaBase): { path: string; at: Span }[] {
  const out: { path: string; at: Span }[] = [];
  const walk = (attrs: Record<string, Located<string>>, children: readonly ConfigElement[]): void => {
    for (const name of ['certificateKeystoreFile', 'keystoreFile']) {
      const a = attrs[name];
      if (a && a.value.trim() !== '') out.push({ path: resolveBasePath(base, a.value.trim()), at: a.span });
    }
    for (const c of children) walk(c.attributes, c.children);
  };
  for (const s of base.serverXml?.services ?? []) for (const c of s.connectors) walk(c.attributes, c.children);
  return out;
}
