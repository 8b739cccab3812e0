import { join } from 'node:path';
import { fileStartSpan, type CatalinaBase, type Diagnostic, type PropertyEntry, type Span } from '../../model/index.js';
import { parsePropertiesFile, propertyOf } from '../../parser/index.js';
import { readArchiveEntry, readInScope, scopeOf } from '../../parser/files.js';
import { isWholeBase } from '../file-access.js';
import type { Rule } from '../types.js';

const ENTRY = 'org/apache/catalina/util/ServerInfo.properties';

/**
 * The ServerInfo.properties Tomcat reads, and where: the common class loader's order (conf/catalina.properties'
 * common.loader: the base's lib/ folder, its jars, then the home's). Read through the file-access layer: a
 * jar is a stranger's file like any other (a zip bomb, a link to /dev/zero), so a bad one is `unread`.
 */
function serverInfo(
  base: CatalinaBase,
): { text: string; where: string; inJar: boolean } | { unread: Diagnostic } | null {
  const scope = scopeOf(base);
  const places = [...new Set([base.base, base.home])].flatMap((dir) => [
    join(dir, 'lib', ENTRY),
    join(dir, 'lib', 'catalina.jar'),
  ]);
  for (const place of places) {
    const inJar = place.endsWith('.jar');
    // Only the one entry is inflated, after the central directory (catalina.jar is about 2 MB).
    const r = inJar ? readArchiveEntry(place, ENTRY, scope, 1024 * 1024) : readInScope(place, scope);
    if ('absent' in r) continue;
    if ('diagnostic' in r) return { unread: r.diagnostic };
    const text = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.length).toString('latin1');
    return { text, where: inJar ? `${place}!/${ENTRY}` : place, inJar };
  }
  return null;
}

/** The build stamp Tomcat's build writes into server.built (`Sep 20 2026 11:06:01 UTC`). */
const BUILD_STAMP = /^\s*[A-Z][a-z]{2} \d{1,2} \d{4} \d{2}:\d{2}:\d{2} [A-Z]{2,5}\s*$/;

/**
 * What gives Tomcat away in each value, or null when the value was altered. `shipped` is the value
 * of the catalina.jar the override hides, when there is one to compare with.
 */
const TELLS: Record<string, { control: string[]; tells: (v: string, shipped?: string) => boolean; what: string }> = {
  'server.info': {
    control: ['cis-tomcat-10.1:2.1', 'stig-tomcat:V-222978'],
    tells: (v) => /tomcat/i.test(v) || /\d+\.\d+\.\d+/.test(v),
    what: 'names the product or its version',
  },
  'server.number': {
    control: ['cis-tomcat-10.1:2.2', 'stig-tomcat:V-222978'],
    tells: (v) => /^\s*\d+\.\d+\.\d+(?:\.\d+)?\s*$/.test(v) && !/^\s*0(?:\.0)*\s*$/.test(v),
    what: 'is the real version number',
  },
  // CIS 2.3 asks that server.built be altered: the shipped value (catalina.jar's), or a build stamp
  // in the form Tomcat's build writes, is not altered; any other value is, whatever it contains.
  'server.built': {
    control: ['cis-tomcat-10.1:2.3'],
    tells: (v, shipped) => (shipped !== undefined && v.trim() === shipped.trim()) || BUILD_STAMP.test(v),
    what: "is the shipped build date (catalina.jar's, or a build stamp as Tomcat's build writes it)",
  },
};

/** The values of the catalina.jar an override in lib/ hides (the first one found), for comparison. */
function shippedValues(base: CatalinaBase): Map<string, string> {
  const out = new Map<string, string>();
  const scope = scopeOf(base);
  for (const dir of [...new Set([base.base, base.home])]) {
    const r = readArchiveEntry(join(dir, 'lib', 'catalina.jar'), ENTRY, scope, 1024 * 1024);
    if ('absent' in r || 'diagnostic' in r) continue;
    const text = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.length).toString('latin1');
    for (const e of parsePropertiesFile(text, 'catalina.jar').properties.entries) out.set(e.key.value, e.value.value);
    break;
  }
  return out;
}

export const rule: Rule = {
  meta: {
    id: 'server-info-default',
    description:
      'ServerInfo.properties still says Apache Tomcat and its version, number or build date (server.info, server.number, server.built).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat prints its exact version in error pages (when showServerInfo is on), the manager and its logs, so an attacker can look up its known vulnerabilities.',
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['cis-tomcat-10.1:2.1', 'cis-tomcat-10.1:2.2', 'cis-tomcat-10.1:2.3', 'stig-tomcat:V-222978'],
    // Tomcat ships the real values on purpose; only the benchmarks ask to alter them.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    if (!isWholeBase(ctx.base)) return;
    const found = serverInfo(ctx.base);
    if (found && 'unread' in found) {
      // What was not read and why, at the file: the controls cannot be judged from it.
      ctx.report({
        message: `${found.unread.message} The ServerInfo.properties Tomcat would report could not be checked.`,
        span: found.unread.span,
      });
      return;
    }
    if (!found) {
      const at = ctx.base.serverXml?.file ?? join(ctx.base.base, 'conf');
      ctx.report({
        message: `No ServerInfo.properties overrides Tomcat's under ${join(ctx.base.base, 'lib')}${ctx.base.home === ctx.base.base ? '' : ` or ${join(ctx.base.home, 'lib')}`}, and no catalina.jar was found to read (give tollgate audit --home): Tomcat then reports the values of its catalina.jar, "Apache Tomcat/<version>". Put an altered copy at lib/${ENTRY}.`,
        span: fileStartSpan(at),
      });
      return;
    }
    const props = parsePropertiesFile(found.text, found.where).properties;
    const failing: { key: string; e: PropertyEntry | undefined; control: string[]; what: string }[] = [];
    const shipped = found.inJar ? new Map<string, string>() : shippedValues(ctx.base);
    for (const [key, t] of Object.entries(TELLS)) {
      const e = propertyOf(props, key);
      if (!e || t.tells(e.value.value, shipped.get(key))) failing.push({ key, e, control: t.control, what: t.what });
    }
    const say = (f: (typeof failing)[number]): string =>
      f.e
        ? `${f.key}=${f.e.value.value} ${f.what}`
        : `${f.key} is missing (Tomcat falls back to a built-in value of its own)`;
    const fix = `Tomcat shows these to clients and in its logs; put an altered copy at $CATALINA_BASE/lib/${ENTRY} (read before catalina.jar's).`;
    if (found.inJar) {
      // Inside a jar there is no line to point at: one finding at the jar, failing each control concerned.
      if (failing.length === 0) return;
      ctx.report({
        message: `${found.where}: ${failing.map(say).join('; ')}. ${fix}`,
        span: fileStartSpan(found.where.replace(/!\/.*$/, '')),
        benchmarks: [...new Set(failing.flatMap((f) => f.control))],
      });
      return;
    }
    for (const f of failing) {
      const span: Span = f.e ? f.e.value.span : fileStartSpan(found.where);
      ctx.report({ message: `${say(f)}. ${fix}`, span, benchmarks: f.control });
    }
  },
};
