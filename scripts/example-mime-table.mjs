// Writes Tomcat's MIME table into examples/base/conf/web.xml, between its BEGIN and END markers:
// every <mime-mapping> of Tomcat 10.1's stock conf/web.xml (Debian's tomcat10 package: /etc/tomcat10/web.xml,
// or the file given as the first argument), in Tomcat's order. Tomcat's conf/web.xml is Apache-2.0, as
// tollgate is; NOTICE carries the attribution. Usage: node scripts/example-mime-table.mjs [web.xml]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const source = process.argv[2] ?? '/etc/tomcat10/web.xml';
const target = join(import.meta.dirname, '..', 'examples', 'base', 'conf', 'web.xml');
const BEGIN = '<!-- BEGIN Tomcat 10.1 MIME table (scripts/example-mime-table.mjs) -->';
const END = '<!-- END Tomcat 10.1 MIME table -->';

const text = readFileSync(source, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
const mappings = [
  ...text.matchAll(
    /<mime-mapping>\s*<extension>([^<]+)<\/extension>\s*<mime-type>([^<]+)<\/mime-type>\s*<\/mime-mapping>/g,
  ),
].map(
  (m) => `  <mime-mapping><extension>${m[1].trim()}</extension><mime-type>${m[2].trim()}</mime-type></mime-mapping>`,
);
if (mappings.length < 1000)
  throw new Error(`${source}: only ${mappings.length} <mime-mapping> entries; is it Tomcat's conf/web.xml?`);

const current = readFileSync(target, 'utf8');
const start = current.indexOf(BEGIN);
const end = current.indexOf(END);
if (start < 0 || end < start) throw new Error(`${target}: the BEGIN and END markers are missing`);
writeFileSync(target, `${current.slice(0, start + BEGIN.length)}\n${mappings.join('\n')}\n  ${current.slice(end)}`);
process.stdout.write(`${target}: ${mappings.length} mime-mappings from ${source}\n`);
