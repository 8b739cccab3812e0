import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lintBase, type LintOptions } from '../../src/lint/engine.js';
import { loadInput } from '../../src/lint/inputs.js';
import type { Diagnostic } from '../../src/model/index.js';
import { ruleById } from '../../src/lint/rules/index.js';
import type { RuleMeta } from '../../src/lint/types.js';

const made: string[] = [];

/** Writes files into a fresh temporary directory and returns it. */
export function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-lint-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

export function cleanup(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Lints a base made of these files (paths relative to the base). */
export function lintFiles(files: Record<string, string>, opts: LintOptions = {}): Diagnostic[] {
  const dir = tree(files);
  // A JSON chain document is linted as the file itself; anything else as a CATALINA_BASE.
  const json = Object.keys(files).find((f) => f.endsWith('.json') && f !== 'tollgate.config.json');
  return lintBase(loadInput(json ? join(dir, json) : dir), opts).diagnostics;
}

/** A web.xml with the given body, as an application of a minimal base. */
export function app(body: string, version = '6.0'): Record<string, string> {
  return {
    'webapps/app/WEB-INF/web.xml': `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="${version}">\n${body}\n</web-app>\n`,
  };
}

/** A <filter> with init-params, mapped to /*. */
export function filter(name: string, simpleClass: string, params: Record<string, string> = {}, mapped = true): string {
  const ps = Object.entries(params)
    .map(([k, v]) => `    <init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('\n');
  const mapping = mapped
    ? `\n  <filter-mapping><filter-name>${name}</filter-name><url-pattern>/*</url-pattern></filter-mapping>`
    : '';
  return `  <filter>\n    <filter-name>${name}</filter-name>\n    <filter-class>org.apache.catalina.filters.${simpleClass}</filter-class>\n${ps}\n  </filter>${mapping}`;
}

export function ids(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => d.ruleId);
}

/**
 * Gives a registered rule other metadata (benchmarks, profiles) for a test, so a test of the mechanism
 * holds whatever rules carry then; the returned function puts the rule's own back.
 */
export function patchRuleMeta(id: string, patch: Partial<RuleMeta>): () => void {
  const meta = ruleById(id)!.meta as unknown as Record<string, unknown>;
  const own = Object.keys(patch).map((k) => [k, k in meta, meta[k]] as const);
  Object.assign(meta, patch);
  return () => {
    for (const [k, had, value] of own) {
      if (had) meta[k] = value;
      else delete meta[k];
    }
  };
}
