import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';

export {
  PROFILES,
  RULE_LEVELS,
  configFileSchema,
  type Accounts,
  type AuditFacts,
  type Waiver,
  type ConfigFile,
  type Profile,
  type RuleLevel,
} from '../schema/config-document.js';
import type { ConfigFile } from '../schema/config-document.js';
import { configFileSchema } from '../schema/config-document.js';

export class ConfigError extends Error {}

/**
 * Finds tollgate.config.json upward from `cwd` and reads it; errors name
 * file:line:column. `isRule` (when given) rejects rule ids it does not know.
 */
export function loadConfig(cwd: string, isRule?: (id: string) => boolean): { path: string | null; config: ConfigFile } {
  let dir = resolve(cwd);
  for (;;) {
    const path = join(dir, 'tollgate.config.json');
    if (existsSync(path)) return { path, config: readConfig(path, isRule) };
    const parent = dirname(dir);
    if (parent === dir) return { path: null, config: {} };
    dir = parent;
  }
}

/** 1-based line and column (UTF-16) of a character offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split(/\r\n|\r|\n/);
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

function readConfig(path: string, isRule?: (id: string) => boolean): ConfigFile {
  let text: string;
  try {
    // Editors on Windows may save a BOM, which JSON.parse refuses.
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new ConfigError(`${path}: cannot read: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // V8 names the offending position, except at the end of the input.
    const m = /position (\d+)/.exec((e as Error).message);
    throw new ConfigError(
      `${path}:${position(text, m ? Number(m[1]) : text.trimEnd().length)}: invalid JSON: ${(e as Error).message}`,
    );
  }
  const r = configFileSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    // An unknown key is reported at its object: point at the key itself.
    const at =
      issue.code === 'unrecognized_keys' ? where(text, [...issue.path, issue.keys[0]!], true) : where(text, issue.path);
    throw new ConfigError(`${path}:${at}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  for (const id of Object.keys(r.data.rules ?? {})) {
    if (isRule && !isRule(id))
      throw new ConfigError(`${path}:${where(text, ['rules', id], true)}: rules: there is no rule "${id}"`);
  }
  return r.data;
}

/** Where the value at a JSON path is written (or its property name), as line:column. */
function where(text: string, path: PropertyKey[], key = false): string {
  const tree = parseTree(text);
  let node = tree
    ? findNodeAtLocation(
        tree,
        path.filter((p): p is string | number => typeof p !== 'symbol'),
      )
    : undefined;
  if (node && key && node.parent?.type === 'property') node = node.parent.children?.[0];
  return position(text, node?.offset ?? 0);
}

/** Where the value at a JSON path of a config file is written, as a 1-based line and column (1:1 when not found). */
export function configPosition(path: string, jsonPath: (string | number)[]): { line: number; column: number } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch {
    return { line: 1, column: 1 };
  }
  const [line, column] = where(text, jsonPath).split(':').map(Number);
  return { line: line ?? 1, column: column ?? 1 };
}
