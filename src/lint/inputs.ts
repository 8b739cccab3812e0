import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CatalinaBase, LoadedContext } from '../model/index.js';
import { fileStartSpan } from '../model/index.js';
import { loadBase, parseContextXml, parseServerXml, parseTomcatUsers, parseWebXml, parseXmlTree, decodeXml } from '../parser/index.js';

export class InputError extends Error {}

function emptyBase(dir: string): CatalinaBase {
  return {
    base: dir, home: dir, serverXml: null, globalWebXml: null, users: null, engineName: 'Catalina', defaultHost: 'localhost',
    hosts: [{ engineName: 'Catalina', name: 'localhost', aliases: [], appBase: dir, def: null, webXmlDefault: null, contexts: [] }],
    properties: { 'catalina.base': dir, 'catalina.home': dir }, files: new Map(), diagnostics: [],
  };
}

function appContext(docBase: string, webXml: LoadedContext['webXml']): LoadedContext {
  const name = basename(docBase);
  return { path: name === 'ROOT' ? '' : '/' + name, version: '', name, docBase, source: 'app-dir', contextDef: null, webXml };
}

/** Reads one file by what its root element says it is: web.xml, server.xml, tomcat-users.xml or a context file. */
function loadSingleFile(path: string): CatalinaBase {
  const bytes = readFileSync(path);
  const base = emptyBase(dirname(path));
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
  } else {
    const r = parseWebXml(bytes, path);
    base.files.set(path, r.source);
    base.diagnostics.push(...r.diagnostics);
    // A file named like the global descriptor under conf/ is one; anything else is an application's.
    if (r.webXml && basename(dirname(path)) === 'conf') base.globalWebXml = r.webXml;
    else if (r.webXml) base.hosts[0]!.contexts.push(appContext(dirname(dirname(path)), r.webXml));
  }
  return base;
}

/**
 * What `tollgate lint PATH` reads: a CATALINA_BASE (has conf/ or webapps/),
 * a web application (has WEB-INF/web.xml), or a single configuration file.
 */
export function loadInput(input: string): CatalinaBase {
  const path = resolve(input);
  if (!existsSync(path)) throw new InputError(`${input}: no such file or directory`);
  const stat = statSync(path);
  if (stat.isFile()) {
    try {
      return loadSingleFile(path);
    } catch (e) {
      throw new InputError(`${input}: ${(e as Error).message}`);
    }
  }
  if (existsSync(join(path, 'WEB-INF', 'web.xml')) && !existsSync(join(path, 'conf'))) {
    const base = emptyBase(dirname(path));
    const file = join(path, 'WEB-INF', 'web.xml');
    const r = parseWebXml(readFileSync(file), file);
    base.files.set(file, r.source);
    base.diagnostics.push(...r.diagnostics);
    base.hosts[0]!.contexts.push(appContext(path, r.webXml));
    return base;
  }
  if (existsSync(join(path, 'conf')) || existsSync(join(path, 'webapps'))) return loadBase({ base: path });
  const base = emptyBase(path);
  base.diagnostics.push({
    ruleId: 'base-unreadable',
    severity: 'error',
    message: `${input} is neither a CATALINA_BASE (no conf/ or webapps/) nor a web application (no WEB-INF/web.xml).`,
    span: fileStartSpan(path),
  });
  return base;
}
