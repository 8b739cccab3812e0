/**
 * `persist`: writes the registry's hosts into conf/server.xml. Unlike
 * Tomcat's StoreConfig, which regenerates the whole file (dropping every
 * comment), only Host elements change: hosts added since the file was read
 * are inserted after the Engine's last Host, hosts removed are deleted, a
 * host re-added under an existing name replaces its element in place. The
 * rest of the file stays byte for byte. A timestamped backup copy is kept under
 * StoreConfig's name (the newest ten by default), and the file is replaced atomically (temporary file,
 * fsync, rename, fsync of the directory): a crash leaves the old or the new
 * file, never a torn one.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { copyFile, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ServerXml, SourceFile } from '../model/index.js';
import { decodeXml, encodeSource, parseXmlTree, referenceUnencodable, type XmlElement } from '../parser/index.js';
import type { Persister } from './host-manager.js';
import type { HostRegistry, VirtualHost } from './hosts.js';

const STORE_CONFIG = [
  'org.apache.catalina.storeconfig.StoreConfigLifecycleListener',
  'org.vendor.container.storeconfig.StoreConfigLifecycleListener',
];

/** Whether server.xml declares the StoreConfig listener, without which Tomcat refuses `persist`. */
export function storeConfigEnabled(serverXml: ServerXml | null): boolean {
  return serverXml !== null && serverXml.listeners.some((l) => STORE_CONFIG.includes(l.className?.value.trim() ?? ''));
}

/** The file operations of a persist, replaceable to test what a crash at each step leaves behind. */
export interface PersistSteps {
  /** Creates `path` (which must not exist) with `data`, the mode and (where permitted) owner of `like`, and flushes it to disk. */
  writeDurable(path: string, data: Uint8Array, like: FileOwnership): Promise<void>;
  /** Atomically puts `source` in the place of `target`. */
  replace(source: string, target: string): Promise<void>;
  /** Flushes a directory's entries (the rename) to disk. */
  syncDirectory(dir: string): Promise<void>;
  /** Keeps a copy of `file` at `backup` (which must not exist). */
  backup(file: string, backup: string): Promise<void>;
}

export const durableSteps: PersistSteps = {
  async writeDurable(path, data, like) {
    const fh = await open(path, 'wx', 0o600);
    try {
      await fh.writeFile(data);
      // The replacement keeps server.xml's mode (chmod, as the umask narrowed open's) and, where the
      // process may, its owner: the first persist used to leave a 0600 file owned by whoever ran serve.
      await fh.chmod(like.mode & 0o7777);
      await fh.chown(like.uid, like.gid).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EPERM') throw err;
      });
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
  replace: (source, target) => rename(source, target),
  async syncDirectory(dir) {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } catch (err) {
      // Some file systems cannot fsync a directory; the rename itself is still atomic.
      if ((err as NodeJS.ErrnoException).code !== 'EINVAL' && (err as NodeJS.ErrnoException).code !== 'EISDIR')
        throw err;
    } finally {
      await fh.close();
    }
  },
  // A copy, not a hard link: a link shares the inode, so an editor that rewrites server.xml in place
  // would change the backup with it.
  backup: (file, backup) => copyFile(file, backup, fsConstants.COPYFILE_EXCL),
};

/** The mode and owner a replacement of a file keeps. */
export interface FileOwnership {
  mode: number;
  uid: number;
  gid: number;
}

export interface ServerXmlPersisterOptions {
  registry: HostRegistry;
  /** Path of conf/server.xml. */
  file: string;
  /** For the backup's time stamp (default: now). */
  now?: () => Date;
  steps?: Partial<PersistSteps>;
  /** Backups of server.xml kept, the newest ones (default 10); StoreConfig keeps every one. */
  keepBackups?: number;
  /** Rewrite on the calling thread instead of a worker thread (default false). */
  inline?: boolean;
}

/** The persister the host manager calls for `persist`. */
export function createServerXmlPersister(options: ServerXmlPersisterOptions): Persister {
  const steps: PersistSteps = { ...durableSteps, ...options.steps };
  const now = options.now ?? (() => new Date());
  const keep = options.keepBackups ?? 10;
  const { registry, file } = options;
  const dir = dirname(file);
  // Temporary files a crashed persist left behind are removed before the first persist writes.
  const tidied = removeStaleTemps(file).catch(() => undefined);
  return {
    // On the registry's queue: the hosts written are a state that existed, never half of a concurrent change.
    persist: () =>
      registry.exclusive(async () => {
        await tidied;
        const hosts = registry.list();
        const bytes = await readFile(file);
        const like = await stat(file);
        const updated = await (options.inline
          ? rewriteHosts(bytes, file, hosts, registry.engineName)
          : rewriteHostsOffThread(bytes, file, hosts, registry.engineName));
        if (updated === null) throw new PersistError(`${file} has no <Engine> to hold hosts`);
        await steps.backup(file, await freeBackupName(file, now()));
        const temp = join(dir, `${tempPrefix(file)}${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
        try {
          await steps.writeDurable(temp, updated, like);
          await steps.replace(temp, file);
        } catch (err) {
          await unlink(temp).catch(() => undefined);
          throw err;
        }
        await steps.syncDirectory(dir);
        registry.markPersisted(hosts.map((h) => h.name));
        await rotateBackups(file, keep).catch(() => undefined);
      }),
  };
}

interface RewriteRequest {
  tollgatePersistRewrite: true;
  bytes: Uint8Array;
  file: string;
  hosts: readonly VirtualHost[];
  engineName: string;
}

type RewriteAnswer = { ok: true; bytes: Uint8Array | null } | { ok: false; message: string; persistError: boolean };

/**
 * rewriteHosts on a worker thread. Parsing a server.xml of 10,000 hosts takes a few hundred
 * milliseconds of CPU; on the event loop that stalled every virtual host for as long. A thread that
 * cannot start leaves the rewrite to this one.
 */
export function rewriteHostsOffThread(
  bytes: Uint8Array,
  file: string,
  hosts: readonly VirtualHost[],
  engineName: string,
): Promise<Uint8Array | null> {
  const request: RewriteRequest = { tollgatePersistRewrite: true, bytes, file, hosts, engineName };
  let worker: Worker;
  try {
    worker = startWorker(request);
  } catch {
    return Promise.resolve(rewriteHosts(bytes, file, hosts, engineName));
  }
  return new Promise<Uint8Array | null>((resolve, reject) => {
    worker.once('message', (m: RewriteAnswer) => {
      if (m.ok) resolve(m.bytes === null ? null : Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
      else reject(m.persistError ? new PersistError(m.message) : new Error(m.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`persist worker exited with ${code}`)));
  }).finally(() => void worker.terminate());
}

/** A thread running this module (under tsx, in tests, it registers tsx's loader first). */
function startWorker(request: RewriteRequest): Worker {
  // Started from bin/tollgate.js: the thread loads the CLI bundle as the main thread did (dist/bundle/cli.cjs is
  // a script bin/load-cli.cjs runs, not a module a thread could start on).
  const loader = (globalThis as Record<symbol, unknown>)[Symbol.for('tollgate.cli.loader')];
  if (typeof loader === 'string') return new Worker(loader, { workerData: request, execArgv: [] });
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL(here), { workerData: request, execArgv: [] });
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(here)}); })`;
  return new Worker(boot, { eval: true, workerData: request });
}

function tempPrefix(file: string): string {
  return `.${basename(file)}.`;
}

/** Removes `.<name>.<pid>.<hex>.tmp` files of `file` whose process is gone (a crash between write and rename). */
export async function removeStaleTemps(file: string): Promise<string[]> {
  const prefix = tempPrefix(file);
  const removed: string[] = [];
  for (const name of await readdir(dirname(file))) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (m === null || processAlive(Number(m[1]))) continue;
    await unlink(join(dirname(file), name)).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes all but the newest `keep` backups of `file` (StoreConfig's `name.yyyy-MM-dd.HH-mm-ss-N`). */
export async function rotateBackups(file: string, keep: number): Promise<string[]> {
  const prefix = `${basename(file)}.`;
  const backups: { name: string; key: string }[] = [];
  for (const name of await readdir(dirname(file))) {
    const m = /^(\d{4}-\d{2}-\d{2}\.\d{2}-\d{2}-\d{2})-(\d+)$/.exec(
      name.startsWith(prefix) ? name.slice(prefix.length) : '',
    );
    if (m !== null) backups.push({ name, key: `${m[1]}-${m[2]!.padStart(10, '0')}` });
  }
  backups.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const removed = backups.slice(0, Math.max(0, backups.length - keep)).map((b) => b.name);
  for (const name of removed) await unlink(join(dirname(file), name)).catch(() => undefined);
  return removed;
}

/**
 * StoreConfig's backup name: `server.xml.yyyy-MM-dd.HH-mm-ss-N` (local time). N is one more than the
 * highest N of that second still on disk (StoreConfig takes the first free one), so names keep their
 * order after old backups are rotated away.
 */
export async function freeBackupName(file: string, at: Date): Promise<string> {
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}.${p(at.getHours())}-${p(at.getMinutes())}-${p(at.getSeconds())}`;
  const prefix = `${basename(file)}.${stamp}-`;
  let next = 0;
  for (const name of await readdir(dirname(file))) {
    if (name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
      next = Math.max(next, Number(name.slice(prefix.length)) + 1);
  }
  return `${file}.${stamp}-${next}`;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The new bytes of server.xml with the Host elements of `hosts`' Engine
 * brought in line with `hosts`, or null when the file has no Engine.
 */
export function rewriteHosts(
  bytes: Uint8Array,
  file: string,
  hosts: readonly VirtualHost[],
  engineName: string,
): Uint8Array | null {
  const { source } = decodeXml(bytes, file);
  const { doc } = parseXmlTree(source);
  const engine = findEngine(doc.root, engineName);
  const text = source.text;
  // A self-closing <Engine/> has no content to insert into.
  if (engine === null || !text.startsWith('</', engine.contentEnd)) return null;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const fileHosts = engine.children.filter((c) => c.name === 'Host');
  const byName = new Map<string, XmlElement>();
  for (const el of fileHosts) {
    const n = el.attributes.find((a) => a.name === 'name')?.value.toLowerCase();
    if (n !== undefined && !byName.has(n)) byName.set(n, el);
  }
  const wanted = new Map(hosts.map((h) => [h.name, h]));
  const edits: Edit[] = [];
  const deleted = new Set<XmlElement>();
  for (const [n, el] of byName) {
    const h = wanted.get(n);
    if (h === undefined) {
      edits.push(removal(text, el));
      deleted.add(el);
    } else if (!h.inServerXml)
      edits.push({
        start: el.span.offset,
        end: el.span.endOffset,
        text: renderHost(h, indentOf(text, el.span.offset), eol).trimStart(),
      });
  }
  const added = hosts.filter((h) => !byName.has(h.name));
  if (added.length > 0) {
    const kept = fileHosts.filter((el) => !deleted.has(el));
    const anchor = kept[kept.length - 1];
    const model = anchor ?? fileHosts[fileHosts.length - 1];
    const indent = model !== undefined ? indentOf(text, model.span.offset) : indentOf(text, engine.span.offset) + '  ';
    const block = added.map((h) => eol + renderHost(h, indent, eol)).join('');
    if (anchor !== undefined) edits.push({ start: anchor.span.endOffset, end: anchor.span.endOffset, text: block });
    else {
      // No Host left: before the Engine's end tag, on a line of its own.
      const at = lineStart(text, engine.contentEnd) ?? engine.contentEnd;
      const before = at === engine.contentEnd ? block : block.slice(eol.length) + eol;
      edits.push({ start: at, end: at, text: before });
    }
  }
  if (edits.length === 0) return Uint8Array.from(bytes);
  return splice(bytes, source, edits);
}

function findEngine(root: XmlElement | null, engineName: string): XmlElement | null {
  if (root === null || root.name !== 'Server') return null;
  let first: XmlElement | null = null;
  for (const service of root.children) {
    if (service.name !== 'Service') continue;
    const engine = service.children.find((c) => c.name === 'Engine');
    if (engine === undefined) continue;
    first ??= engine;
    if (engine.attributes.find((a) => a.name === 'name')?.value === engineName) return engine;
  }
  return first;
}

const LINE_END = /[ \t]*\r?\n/y;

/** Deletes an element together with its own line (leading indentation and line end) when it stands alone on it. */
function removal(text: string, el: XmlElement): Edit {
  let start = el.span.offset;
  let end = el.span.endOffset;
  const ls = lineStart(text, start);
  LINE_END.lastIndex = end;
  const rest = LINE_END.exec(text);
  if (ls !== null && rest !== null) {
    start = ls;
    end += rest[0].length;
  }
  return { start, end, text: '' };
}

/** The offset where the line holding `offset` starts, when only blanks precede `offset` on it; else null. */
function lineStart(text: string, offset: number): number | null {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' ? i : null;
}

function indentOf(text: string, offset: number): string {
  const ls = lineStart(text, offset);
  return ls === null ? '' : text.slice(ls, offset);
}

/**
 * A Host element as StoreConfig prints one: attributes in alphabetical
 * order, a line break (and four more spaces) once the running length passes
 * 60, Alias children two spaces in. Unlike StoreConfig, appBase, name,
 * deployXML and unpackWARs are always written, even at their defaults.
 */
export function renderHost(h: VirtualHost, indent: string, eol = '\n'): string {
  const attrs: [string, string][] = [['appBase', h.appBase]];
  if (!h.autoDeploy) attrs.push(['autoDeploy', 'false']);
  if (h.copyXML) attrs.push(['copyXML', 'true']);
  if (!h.deployOnStartup) attrs.push(['deployOnStartup', 'false']);
  attrs.push(['deployXML', String(h.deployXML)], ['name', h.name], ['unpackWARs', String(h.unpackWARs)]);
  let out = `${indent}<Host`;
  let pos = indent.length;
  for (const [k, v] of attrs) {
    const value = escapeXml(v);
    pos += k.length + value.length;
    if (pos > 60) {
      out += `${eol}${indent}    `;
      pos = indent.length + 4;
    } else out += ' ';
    out += `${k}="${value}"`;
  }
  out += `>${eol}`;
  for (const a of h.aliases) out += `${indent}  <Alias>${escapeXml(a)}</Alias>${eol}`;
  return `${out}${indent}</Host>`;
}

/**
 * Attribute-safe XML escaping. Tab, line feed and carriage return are written as character references:
 * written raw, an attribute value normalises them to spaces when read back (appBase "a\tb" would become
 * "a b", another directory). Other C0 controls cannot stand in XML 1.0 at all, even as references.
 */
function escapeXml(s: string): string {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(s))
    throw new PersistError(`${JSON.stringify(s)} holds a control character that XML 1.0 cannot represent`);
  return s.replace(/[&<>"'\t\n\r]/g, (c) => ESCAPES[c]!);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** A host that cannot be written as it is; the host manager answers FAIL with the message. */
export class PersistError extends Error {}

/**
 * Applies text edits to the original bytes, so every byte outside them stays as it was. One pass: the
 * text between and under the edits is encoded once, in order, to find where each edit falls in the
 * bytes (encoding each edit's whole prefix made 5,000 removals from a 10,000-host file take seconds).
 */
function splice(bytes: Uint8Array, source: SourceFile, edits: Edit[]): Uint8Array {
  const plain: SourceFile = { ...source, bom: false };
  const bomLength = !source.bom ? 0 : source.encoding.startsWith('utf-16') ? 2 : 3;
  const text = source.text;
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: Uint8Array[] = [];
  let at = 0;
  let byte = bomLength;
  let from = 0;
  for (const e of sorted) {
    byte += encodeSource(plain, text.slice(at, e.start)).length;
    parts.push(bytes.subarray(from, byte), encodeSource(plain, referenceUnencodable(source, e.text)));
    byte += encodeSource(plain, text.slice(e.start, e.end)).length;
    at = e.end;
    from = byte;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

// On a worker thread started by rewriteHostsOffThread: rewrite and answer (after every declaration above).
if (!isMainThread && (workerData as RewriteRequest | undefined)?.tollgatePersistRewrite) {
  const { bytes, file, hosts, engineName } = workerData as RewriteRequest;
  let answer: RewriteAnswer;
  try {
    answer = { ok: true, bytes: rewriteHosts(bytes, file, hosts, engineName) };
  } catch (err) {
    answer = {
      ok: false,
      message: err instanceof Error ? err.message : String(err),
      persistError: err instanceof PersistError,
    };
  }
  parentPort!.postMessage(answer);
}
