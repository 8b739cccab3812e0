/**
 * What the language server lints when a document changes: the input the file belongs to (its
 * CATALINA_BASE, its web application, or the file alone), read with the editor's unsaved buffers
 * in place of the disk, through the same loader, config, profiles and rules as `tollgate lint`.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { contextsOf, type ResolvedContext } from '../chain/index.js';
import type { TomcatTarget } from '../filters/index.js';
import { ConfigError, loadConfig, type Profile, type RuleLevel } from '../lint/config.js';
import { lintBase } from '../lint/engine.js';
import { InputError, loadInput, type Overlay } from '../lint/inputs.js';
import { ruleById } from '../lint/rules/index.js';
import type { CatalinaBase, Diagnostic, SourceFile } from '../model/index.js';
import type { ParseCache } from '../parser/index.js';
import { fileStartSpan } from '../model/index.js';

/** Settings the client may send (initializationOptions / workspace configuration), over tollgate.config.json. */
export interface CheckSettings {
  target?: TomcatTarget;
  profile?: Profile;
  rules?: Record<string, RuleLevel>;
}

export interface CheckResult {
  /** The input linted: a base directory, a webapp directory or the file itself. */
  root: string;
  /** Every finding of the input, by absolute file path. */
  byFile: Map<string, Diagnostic[]>;
  files: Map<string, SourceFile>;
  base: CatalinaBase;
  /** The merged contexts of the input (for hover on mappings), computed when first asked. */
  contexts(): ResolvedContext[];
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The input a file belongs to, as `tollgate lint` would be pointed at it: the nearest ancestor that is
 * a CATALINA_BASE (has conf/ or webapps/) and holds the file under conf/ or webapps/; else its web
 * application (…/WEB-INF/web.xml); else the file alone.
 */
export function inputOf(file: string): string {
  const path = resolve(file);
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const rel = relative(dir, path).split(sep)[0];
    if ((rel === 'conf' || rel === 'webapps') && (isDir(join(dir, 'conf')) || isDir(join(dir, 'webapps')))) return dir;
    if (dirname(dir) === dir) break;
  }
  if (basename(path) === 'web.xml' && basename(dirname(path)) === 'WEB-INF') return dirname(dirname(path));
  return path;
}

/** Lints the input `file` belongs to, with `overlay`'s unsaved buffers read instead of the disk. */
export function check(file: string, overlay: Overlay, settings: CheckSettings = {}, cache?: ParseCache): CheckResult {
  const root = inputOf(file);
  const byFile = new Map<string, Diagnostic[]>();
  const add = (d: Diagnostic): void => {
    const list = byFile.get(d.span.file);
    if (list) list.push(d);
    else byFile.set(d.span.file, [d]);
  };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(isDir(root) ? root : dirname(root), (id) => ruleById(id) !== undefined);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // A broken tollgate.config.json is said where the user is looking, and the defaults apply.
    add({ ruleId: 'json-malformed', severity: 'error', message: e.message, span: fileStartSpan(resolve(file)) });
    config = { path: null, config: {} };
  }
  let base: CatalinaBase;
  try {
    base = loadInput(root, { overlay, ...(cache ? { cache } : {}) });
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    add({ ruleId: 'file-unreadable', severity: 'error', message: e.message, span: fileStartSpan(resolve(file)) });
    return { root, byFile, files: new Map(), base: emptyOf(root), contexts: () => [] };
  }
  const ignore = config.config.ignore?.length ? picomatch(config.config.ignore, { dot: true }) : null;
  const configDir = config.path ? dirname(config.path) : root;
  const result = lintBase(base, {
    target: settings.target ?? config.config.target ?? '10.1',
    profile: settings.profile ?? config.config.profile ?? 'recommended',
    ruleLevels: { ...(config.config.rules ?? {}), ...(settings.rules ?? {}) },
    inlineConfig: true,
    ...(config.config.accounts ? { accounts: config.config.accounts } : {}),
    ...(ignore ? { includeFile: (f: string) => !ignore(relative(configDir, f)) } : {}),
  });
  for (const d of result.diagnostics) add(d);
  let contexts: ResolvedContext[] | null = null;
  return { root, byFile, files: result.files, base, contexts: () => (contexts ??= contextsOf(base)) };
}

function emptyOf(root: string): CatalinaBase {
  const dir = existsSync(root) && isDir(root) ? root : dirname(root);
  return {
    base: dir,
    home: dir,
    serverXml: null,
    globalWebXml: null,
    users: null,
    engineName: 'Catalina',
    defaultHost: 'localhost',
    hosts: [],
    properties: {},
    files: new Map(),
    diagnostics: [],
  };
}

/**
 * The merged contexts of the input `file` belongs to, for hover on a mapping (the lint runs on its own
 * thread, whose models do not cross to the server's): loaded again from the buffers, parsing only what
 * changed since the last call with the same cache.
 */
export function contextsOfInput(file: string, overlay: Overlay, cache?: ParseCache): ResolvedContext[] {
  try {
    return contextsOf(loadInput(inputOf(file), { overlay, ...(cache ? { cache } : {}) }));
  } catch (e) {
    if (e instanceof InputError) return [];
    throw e;
  }
}
