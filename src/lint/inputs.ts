import { basename, dirname, join, resolve } from 'node:path';
import type { CatalinaBase, FileScope, LoadedContext } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { chainDocumentSchema } from '../schema/chain-document.js';
import { LineIndex } from '../parser/index.js';
import {
  acceptConfigBytes,
  existsInScope,
  fileScope,
  isDirInScope,
  isFileInScope,
  placeOf,
  readInScope,
  type ReadResult,
} from '../parser/files.js';
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

function emptyBase(dir: string, scope: FileScope): CatalinaBase {
  return {
    scope,
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

function readWith(path: string, overlay: Overlay | undefined, scope: FileScope): ReadResult {
  const unsaved = overlay?.get(path);
  return unsaved !== undefined ? acceptConfigBytes(path, unsaved) : readInScope(path, scope);
}

/** What a file named on the command line is when it is no configuration file: one line saying so, or null. */
function binaryKind(bytes: Uint8Array): string | null {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5))
    return 'a zip archive (a jar or war)';
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) {
    // UTF-16 XML has a NUL in every other byte and starts with a byte order mark or `<`.
    const utf16 =
      (head[0] === 0xff && head[1] === 0xfe) ||
      (head[0] === 0xfe && head[1] === 0xff) ||
      (head[0] === 0x3c && head[1] === 0) ||
      (head[0] === 0 && head[1] === 0x3c);
    if (!utf16) return 'a binary file (it holds NUL bytes)';
  }
  return null;
}

/** Reads one file by what its root element says it is: web.xml, server.xml, tomcat-users.xml or a context file. */
function loadSingleFile(path: string, scope: FileScope, overlay?: Overlay): CatalinaBase {
  const base = emptyBase(dirname(path), scope);
  const read = readWith(path, overlay, scope);
  if (!('bytes' in read)) {
    if ('diagnostic' in read) base.diagnostics.push(read.diagnostic);
    return base;
  }
  const bytes = read.bytes;
  const kind = binaryKind(bytes);
  if (kind)
    throw new InputError(
      /\.war$/i.test(path)
        ? `${path} is a packed web application archive: tollgate reads unpacked applications; unpack it (mkdir app && cd app && unzip ../${basename(path)}) and lint the folder`
        : `${path} is ${kind}, not a configuration file: name a CATALINA_BASE, an application folder or an XML, properties or JSON file`,
    );
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
export function isBaseInput(path: string, opts: { followSymlinks?: boolean } = {}): boolean {
  const scope = fileScope([path], opts);
  if (!isDirInScope(path, scope)) return false;
  if (existsInScope(join(path, 'WEB-INF', 'web.xml'), scope) && !existsInScope(join(path, 'conf'), scope)) return false;
  return existsInScope(join(path, 'conf'), scope) || existsInScope(join(path, 'webapps'), scope);
}

/**
 * What `tollgate lint PATH` reads: a CATALINA_BASE (has conf/ or webapps/),
 * a web application (has WEB-INF/web.xml), or a single configuration file.
 */
export function loadInput(
  input: string,
  opts: { overlay?: Overlay; cache?: ParseCache; home?: string; followSymlinks?: boolean } = {},
): CatalinaBase {
  const path = resolve(input);
  const unsaved = opts.overlay?.has(path) === true;
  // What the user names is read (it may itself be a link); links inside it stay inside it, or its --home.
  const named = fileScope([path], opts);
  if (!unsaved) {
    const place = placeOf(path, named);
    if ('absent' in place) throw new InputError(`${input}: no such file or directory`);
    if ('refused' in place) throw new InputError(`${input}: not read: ${place.refused}`);
  }
  const isFile = unsaved || !isDirInScope(path, named);
  const fileScopeOf = (): FileScope => fileScope([dirname(path), ...(opts.home ? [opts.home] : [])], opts);
  if (isFile && /\.json$/i.test(path)) return loadChainJson(path, fileScopeOf(), opts.overlay);
  if (isFile) {
    if (!unsaved && !isFileInScope(path, named))
      throw new InputError(
        `${input}: not a regular file (a device, FIFO or socket): tollgate reads regular files only`,
      );
    if (/\.(?:war|jar|ear|zip)$/i.test(path) && !unsaved)
      throw new InputError(
        /\.war$/i.test(path)
          ? `${input} is a packed web application archive: tollgate reads unpacked applications; unpack it (mkdir app && cd app && unzip ../${basename(path)}) and lint the folder`
          : `${input} is an archive, not a configuration file: name a CATALINA_BASE, an application folder or an XML, properties or JSON file`,
      );
    try {
      return loadSingleFile(path, fileScopeOf(), opts.overlay);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${input}: ${(e as Error).message}`);
    }
  }
  const scope = fileScope([path, ...(opts.home ? [opts.home] : [])], opts);
  if (existsInScope(join(path, 'WEB-INF', 'web.xml'), scope) && !existsInScope(join(path, 'conf'), scope)) {
    const base = emptyBase(dirname(path), scope);
    const file = join(path, 'WEB-INF', 'web.xml');
    const read = readWith(file, opts.overlay, scope);
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
  if (existsInScope(join(path, 'conf'), scope) || existsInScope(join(path, 'webapps'), scope))
    return loadBase({
      base: path,
      scope,
      ...(opts.home ? { home: opts.home } : {}),
      ...(opts.overlay ? { overlay: opts.overlay } : {}),
      ...(opts.cache ? { cache: opts.cache } : {}),
    });
  const base = emptyBase(path, scope);
  // `lint /etc/tomcat10`: the conf folder itself, not the base that holds it.
  const confHint =
    existsInScope(join(path, 'server.xml'), scope) || existsInScope(join(path, 'catalina.properties'), scope)
      ? ` It holds server.xml: it looks like a conf/ folder; lint the CATALINA_BASE that holds it instead (its parent ${dirname(path)}, or on Debian /var/lib/tomcat10, whose conf links here).`
      : '';
  base.diagnostics.push({
    ruleId: 'base-unreadable',
    severity: 'error',
    message: `${input} is neither a CATALINA_BASE (no conf/ or webapps/) nor a web application (no WEB-INF/web.xml).${confHint}`,
    span: fileStartSpan(path),
  });
  return base;
}

/** A tollgate.chain.json: its model, plus structural checks against the document schema at JSON positions. */
function loadChainJson(path: string, scope: FileScope, overlay?: Overlay): CatalinaBase {
  const read = readWith(path, overlay, scope);
  if (!('bytes' in read)) {
    const base = emptyBase(dirname(path), scope);
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
