import { readFileSync } from 'node:fs';

let base: string | null = null;

/** Where a rule's documentation lives: docs/rules/<id>.md under the project's repository. */
export function docsUrl(ruleId: string | null): string {
  if (base === null) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { homepage?: string };
    base = (pkg.homepage ?? 'https://github.com/tollgate/tollgate').replace(/#.*$/, '');
  }
  return ruleId === null ? base : `${base}/blob/main/docs/rules/${ruleId}.md`;
}

/** tollgate's version from package.json. */
export function toolVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}
