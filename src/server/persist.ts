/**
 * `persist`: writes the registry's hosts into conf/server.xml. Unlike
 * Tomcat's StoreConfig, which regenerates the whole file (dropping every
 * comment), only Host elements change: hosts added since the file was read
 * are inserted after the Engine's last Host, hosts removed are deleted, a
 * host re-added under an existing name replaces its element in place. The
 * rest of the file stays byte for byte. A timestamped backup is kept under
 * StoreConfig's name, and the file is replaced atomically (temporary file,
 * fsync, rename, fsync of the directory): a crash leaves the old or the new
 * file, never a torn one.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ServerXml, SourceFile } from '../model/index.js';
import { decodeXml, encodeSource, parseXmlTree, type XmlElement } from '../parser/index.js';
import type { Persister } from './host-manager.js';
import type { HostRegistry, VirtualHost } from './hosts.js';

const STORE_CONFIG = ['org.apache.catalina.storeconfig.StoreConfigLifecycleListener', 'org.vendor.container.storeconfig.StoreConfigLifecycleListener'];

/** Whether server.xml declares the StoreConfig listener, without which Tomcat refuses `persist`. */
export function storeConfigEnabled(serverXml: ServerXml | null): boolean {
  return serverXml !== null && serverXml.listeners.some((l) => STORE_CONFIG.includes(l.className?.value.trim() ?? ''));
}

/** The file operations of a persist, replaceable to test what a crash at each step leaves behind. */
export interface PersistSteps {
  /** Creates `path` (which must not exist) with `data` and flushes it to disk. */
  writeDurable(path: string, data: Uint8Array): Promise<void>;
  /** Atomically puts `source` in the place of `target`. */
  replace(source: string, target: string): Promise<void>;
  /** Flushes a directory's entries (the rename) to disk. */
  syncDirectory(dir: string): Promise<void>;
  /** Keeps a copy of `file` at `backup` (which must not exist). */
  backup(file: string, backup: string): Promise<void>;
}

export const durableSteps: PersistSteps = {
  async writeDurable(path, data) {
    const fh = await open(path, 'wx', 0o600);
    try {
      await fh.writeFile(data);
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
      if ((err as NodeJS.ErrnoException).code !== 'EINVAL' && (err as NodeJS.ErrnoException).code !== 'EISDIR') throw err;
    } finally {
      await fh.close();
    }
  },
  async backup(file, backup) {
    try {
      // A hard link costs nothing and keeps the old bytes: the new file is a new inode.
      await link(file, backup);
    } catch {
      await copyFile(file, backup, 1 /* COPYFILE_EXCL */);
    }
  },
};

export interface ServerXmlPersisterOptions {
  registry: HostRegistry;
  /** Path of conf/server.xml. */
  file: string;
  /** For the backup's time stamp (default: now). */
  now?: () => Date;
  steps?: Partial<PersistSteps>;
}

/** The persister the host manager calls for `persist`. */
export function createServerXmlPersister(options: ServerXmlPersisterOptions): Persister {
  const steps: PersistSteps = { ...durableSteps, ...options.steps };
  const now = options.now ?? (() => new Date());
  const { registry, file } = options;
  return {
    // On the registry's queue: the hosts written are a state that existed, never half of a concurrent change.
    persist: () =>
      registry.exclusive(async () => {
        const hosts = registry.list();
        const bytes = await readFile(file);
        const updated = rewriteHosts(bytes, file, hosts, registry.engineName);
        if (updated === null) throw new Error(`${file} has no <Engine> to hold hosts`);
        const dir = dirname(file);
        await steps.backup(file, await freeBackupName(file, now()));
        const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
        try {
          await steps.writeDurable(temp, updated);
          await steps.replace(temp, file);
        } catch (err) {
          await unlink(temp).catch(() => undefined);
          throw err;
        }
        await steps.syncDirectory(dir);
        registry.markPersisted(hosts.map((h) => h.name));
      }),
  };
}

/** StoreConfig's backup name: `server.xml.yyyy-MM-dd.HH-mm-ss-N` (local time, first free N from 0). */
export async function freeBackupName(file: string, at: Date): Promise<string> {
  const p = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}.${p(at.getHours())}-${p(at.getMinutes())}-${p(at.getSeconds())}`;
  for (let i = 0; ; i++) {
    const candidate = `${file}.${stamp}-${i}`;
    try {
      await stat(candidate);
    } catch {
      return candidate;
    }
  }
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
export function rewriteHosts(bytes: Uint8Array, file: string, hosts: readonly VirtualHost[], engineName: string): Uint8Array | null {
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
    } else if (!h.inServerXml) edits.push({ start: el.span.offset, end: el.span.endOffset, text: renderHost(h, indentOf(text, el.span.offset), eol).trimStart() });
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

/** Deletes an element together with its own line (leading indentation and line end) when it stands alone on it. */
function removal(text: string, el: XmlElement): Edit {
  let start = el.span.offset;
  let end = el.span.endOffset;
  const ls = lineStart(text, start);
  const rest = /^[ \t]*(\r?\n)/.exec(text.slice(end));
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

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** Applies text edits to the original bytes, so every byte outside them stays as it was. */
function splice(bytes: Uint8Array, source: SourceFile, edits: Edit[]): Uint8Array {
  const plain: SourceFile = { ...source, bom: false };
  const bomLength = !source.bom ? 0 : source.encoding.startsWith('utf-16') ? 2 : 3;
  const byteAt = (offset: number): number => bomLength + encodeSource(plain, source.text.slice(0, offset)).length;
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const e of sorted) {
    const s = byteAt(e.start);
    parts.push(bytes.subarray(from, s), encodeSource(plain, e.text));
    from = byteAt(e.end);
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
