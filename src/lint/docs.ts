import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let base: string | null = null;
let pkgCache: { homepage?: string; version: string } | null = null;

/** tollgate's package.json, found upward from this module (it may run bundled from dist/). */
function pkg(): { homepage?: string; version: string } {
  if (pkgCache) return pkgCache;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const json = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; homepage?: string; version: string };
      if (json.name === 'tollgate') return (pkgCache = json);
    }
    const parent = dirname(dir);
    if (parent === dir) return (pkgCache = { version: '0.0.0' });
    dir = parent;
  }
}

/** Where a rule's documentation lives: docs/rules/<id>.md under the project's repository. */
export function docsUrl(ruleId: string | null): string {
  if (base === null) {
    base = (pkg().homepage ?? 'https://github.com/tollgate/tollgate').replace(/#.*$/, '');
  }
  return ruleId === null ? base : `${base}/blob/main/docs/rules/${ruleId}.md`;
}

/** tollgate's version from package.json. */
export function toolVersion(): string {
  return pkg().version;
}
