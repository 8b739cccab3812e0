import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CatalinaBase, LoadedContext } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { chainDocumentSchema } from '../schema/chain-document.js';
import { LineIndex } from '../parser/index.js';
import { acceptConfigBytes, readConfigBytes } from '../parser/read.js';
import {
  loadBase,
  type ParseCache,
  parseChainJson,
  parseContextXml,
  parseServerXml,
  parseTomcatUsers,
  parseWebXml,
  parseXmlTree,
  decodeXml,
} from '../parser/index.js';

export class InputError extends Error {}

function emptyBase(dir: string): CatalinaBase {
  return {
    base: dir,
    home: dir,
    serverXml: null,
    globalWebXml: null,
    users: null,
    engineName: 'Catalina',
    defaultHost: 'localhost',
    hosts: [
      {
        engineName: 'Catalina',
        name: 'localhost',
        aliases: [],
        appBase: dir,
        def: null,
        webXmlDefault: null,
        contexts: [],
      },
    ],
    properties: { 'catalina.base': dir, 'catalina.home': dir },
    files: new Map(),
    diagnostics: [],
  };
}

function appContext(docBase: string, webXml: LoadedContext['webXml']): LoadedContext {
  const name = basename(docBase);
  return {
    path: name === 'ROOT' ? '' : '/' + name,
    version: '',
    name,
    docBase,
    source: 'app-dir',
    contextDef: null,
    webXml,
  };
}

/** Files as an editor holds them (unsaved), by absolute path: read instead of the disk. */
export type Overlay = ReadonlyMap<string, Uint8Array>;

function readWith(path: string, overlay: Overlay | undefined): ReturnType<typeof readConfigBytes> {
  const unsaved = overlay?.get(path);
  return unsaved !== undefined ? acceptConfigBytes(path, unsaved) : readConfigBytes(path);
}

/** Reads one file by what its root element says it is: web.xml, server.xml, tomcat-users.xml or a context file. */
function loadSingleFile(path: string, overlay?: Overlay): CatalinaBase {
  const base = emptyBase(dirname(path));
  const read = readWith(path, overlay);
  if (!('bytes' in read)) {
    if ('diagnostic' in read) base.diagnostics.push(read.diagnostic);
    return base;
  }
  const bytes = read.bytes;
  const { source } = decodeXml(bytes, path);
  const root = parseXmlTree(source).doc.root?.name;
  if (root === 'Server') {
    const r = parseServerXml(bytes, path, base.properties);
    base.serverXml = r.serverXml;
    base.files.set(path, r.source);
    base.diagnostics.push(...r.diagnostics);
  } else if (root === 'tomcat-users') {
    const r = parseTomcatUsers(bytes, path);
    base.users = r.users;
    base.files.set(path, r.source);
    base.diagnostics.push(...r.diagnostics);
  } else if (root === 'Context') {
    const r = parseContextXml(bytes, path, base.properties);
    base.files.set(path, r.source);
    base.diagnostics.push(...r.diagnostics);
    // Where the file sits says what it configures: every application, a host's, or one application.
    if (r.context && basename(path) === 'context.xml' && basename(dirname(path)) === 'conf')
      base.contextXml = r.context;
    else if (r.context && basename(path) === 'context.xml.default') base.hosts[0]!.contextDefault = r.context;
    else if (r.context && basename(dirname(path)) === 'META-INF')
      base.hosts[0]!.contexts.push({ ...appContext(dirname(dirname(path)), null), contextDef: r.context });
    else if (r.context)
      base.hosts[0]!.contexts.push({
        ...appContext(path.slice(0, -4), null),
        source: 'context-file',
        contextDef: r.context,
      });
  } else {
    const r = parseWebXml(bytes, path);
    base.files.set(path, r.source);
    base.diagnostics.push(...r.diagnostics);
    // A descriptor under conf/ is the global one and web.xml.default a host's: they merge as defaults,
    // so a filter they define but do not map is not "never mapped". Anything else is an application's.
    if (r.webXml && basename(dirname(path)) === 'conf') base.globalWebXml = r.webXml;
    else if (r.webXml && basename(path) === 'web.xml.default') base.hosts[0]!.webXmlDefault = r.webXml;
    else if (r.webXml) base.hosts[0]!.contexts.push(appContext(dirname(dirname(path)), r.webXml));
  }
  return base;
}

/** Whether loadInput reads `path` as a whole CATALINA_BASE (what worker threads can split). */
export function isBaseInput(path: string): boolean {
  if (!existsSync(path) || !statSync(path).isDirectory()) return false;
  if (existsSync(join(path, 'WEB-INF', 'web.xml')) && !existsSync(join(path, 'conf'))) return false;
  return existsSync(join(path, 'conf')) || existsSync(join(path, 'webapps'));
}

/**
 * What `tollgate lint PATH` reads: a CATALINA_BASE (has conf/ or webapps/),
 * a web application (has WEB-INF/web.xml), or a single configuration file.
 */
export function loadInput(
  input: string,
  opts: { overlay?: Overlay; cache?: ParseCache; home?: string } = {},
): CatalinaBase {
  const path = resolve(input);
  const unsaved = opts.overlay?.has(path) === true;
  if (!unsaved && !existsSync(path)) throw new InputError(`${input}: no such file or directory`);
  const isFile = unsaved || statSync(path).isFile();
  if (isFile && /\.json$/i.test(path)) return loadChainJson(path, opts.overlay);
  if (isFile) {
    try {
      return loadSingleFile(path, opts.overlay);
    } catch (e) {
      throw new InputError(`${input}: ${(e as Error).message}`);
    }
  }
  if (existsSync(join(path, 'WEB-INF', 'web.xml')) && !existsSync(join(path, 'conf'))) {
    const base = emptyBase(dirname(path));
    const file = join(path, 'WEB-INF', 'web.xml');
    const read = readWith(file, opts.overlay);
    if (!('bytes' in read)) {
      if ('diagnostic' in read) base.diagnostics.push(read.diagnostic);
      return base;
    }
    const r = parseWebXml(read.bytes, file);
    base.files.set(file, r.source);
    base.diagnostics.push(...r.diagnostics);
    base.hosts[0]!.contexts.push(appContext(path, r.webXml));
    return base;
  }
  if (existsSync(join(path, 'conf')) || existsSync(join(path, 'webapps')))
    return loadBase({
      base: path,
      ...(opts.home ? { home: opts.home } : {}),
      ...(opts.overlay ? { overlay: opts.overlay } : {}),
      ...(opts.cache ? { cache: opts.cache } : {}),
    });
  const base = emptyBase(path);
  base.diagnostics.push({
    ruleId: 'base-unreadable',
    severity: 'error',
    message: `${input} is neither a CATALINA_BASE (no conf/ or webapps/) nor a web application (no WEB-INF/web.xml).`,
    span: fileStartSpan(path),
  });
  return base;
}

/** A tollgate.chain.json: its model, plus structural checks against the document schema at JSON positions. */
function loadChainJson(path: string, overlay?: Overlay): CatalinaBase {
  const read = readWith(path, overlay);
  if (!('bytes' in read)) {
    const base = emptyBase(dirname(path));
    if ('diagnostic' in read) base.diagnostics.push(read.diagnostic);
    return base;
  }
  const text = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.length).toString('utf8');
  const { base } = parseChainJson(text, path);
  if (base.diagnostics.some((d) => d.ruleId === 'json-malformed')) return base;
  const tree = parseTree(text);
  const r = chainDocumentSchema.safeParse(JSON.parse(text));
  if (!r.success) {
    const lines = new LineIndex(path, text);
    for (const issue of r.error.issues.slice(0, 50).map(specific)) {
      const node = tree ? findNodeAtLocation(tree, issue.path as (string | number)[]) : undefined;
      const span = node ? lines.span(node.offset, node.offset + node.length) : lines.span(0, 0);
      base.diagnostics.push({
        ruleId: 'json-chain-invalid',
        severity: 'error',
        message: `${issue.path.join('.') || '(document)'}: ${issue.message}.`,
        span,
      });
    }
  }
  return base;
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * A filter entry is a union over filter classes, so zod reports "no branch
 * matched" at the entry. Say instead what is wrong in the branch of the
 * entry's own class: the deepest issue of the branch that got furthest.
 */
function specific(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const branches = issue.errors.filter((b) => !b.some((i) => i.path[0] === 'class'));
  const best = (branches.length ? branches : issue.errors).reduce((a, b) => (depth(b) > depth(a) ? b : a));
  const inner = best.reduce((a, b) => (b.path.length > a.path.length ? b : a));
  return specific({ ...inner, path: [...issue.path, ...inner.path] });
}

function depth(issues: Issue[]): number {
  return Math.max(...issues.map((i) => i.path.length));
}
