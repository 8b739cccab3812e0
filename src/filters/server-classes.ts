import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalinaBase, ConfigElement, Diagnostic } from '../model/index.js';
import { suggestParam } from './validate.js';
import { TOMCAT_CLASSES } from './tomcat-classes.js';

/**
 * The classes server.xml names that Tomcat 10.1 cannot load: the digester's ObjectCreateRule throws
 * ClassNotFoundException, Catalina cannot read server.xml and the server does not start ("Cannot start
 * server. Server instance is not configured", observed with a misspelt StoreConfigLifecycleListener and
 * with JasperListener: test/fixtures/tomcat-observed/rules.json). The lint rule server-class-not-found
 * reports each; the plan refuses the server for the first.
 */
const STOCK = /^(org\.apache\.(catalina|tomcat|coyote|naming|jasper)|org\.vendor\.container)\./;
const ALL_STOCK = new Map<string, string>();
for (const [tag, list] of Object.entries(TOMCAT_CLASSES)) for (const c of list) ALL_STOCK.set(c, tag);

/** Classes older server.xml files name that no longer exist in Tomcat 10.1 (with the version that removed them). */
const REMOVED: Record<string, string> = {
  'org.apache.catalina.core.JasperListener': '8.0',
  'org.apache.catalina.mbeans.ServerLifecycleListener': '7.0',
  'org.apache.catalina.core.JreMemoryLeakPreventionListener.classesToInitialize': '8.5',
  'org.apache.catalina.valves.CometConnectionManagerValve': '8.5',
  'org.apache.catalina.authenticator.SingleSignOnListener': '8.0',
  'org.apache.catalina.realm.JAASMemoryLoginModule': '10.0',
};

/** Whether the base or home has a lib/*.jar: classes beyond the JDK's and Tomcat's may then be on Tomcat's class path. */
export function baseHasJars(base: Pick<CatalinaBase, 'base' | 'home'>): boolean {
  return [join(base.base, 'lib'), join(base.home, 'lib')].some(
    (d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.jar')),
  );
}

/**
 * Why stock Tomcat cannot load `cls` on a <tag>, with a suggestion, or null when it can (or when the
 * element is not one whose classes are listed). Tomcat's own packages hold only the classes its jars
 * have: a name there that is not one of them is a typo or a class of another version. With jars of
 * its own in lib/, a base may add classes to those packages too, so only near misses of a stock
 * class are reported then.
 */
function notLoadable(tag: string, cls: string, extraJars: boolean): string | null {
  const known = TOMCAT_CLASSES[tag];
  if (!known || !STOCK.test(cls)) return null;
  const name = cls.replace(/^org\.vendor\.container\./, 'org.apache.catalina.');
  if (known.includes(name)) return null;
  const elsewhere = ALL_STOCK.get(name);
  if (elsewhere)
    return `${cls} is a ${elsewhere} class, not a ${tag}: Tomcat cannot use it here and does not start ("Cannot start server. Server instance is not configured").`;
  const guess = suggestParam(name, known);
  if (extraJars && guess.length === 0) return null;
  return `Tomcat 10.1 has no class ${cls} (ClassNotFoundException): it cannot read server.xml and does not start ("Cannot start server. Server instance is not configured", observed with a misspelt StoreConfigLifecycleListener).${guess.length > 0 ? ` Did you mean ${guess.join(' or ')}?` : ''}`;
}

function* elements(list: ConfigElement[]): Generator<ConfigElement> {
  for (const e of list) {
    yield e;
    yield* elements(e.children);
  }
}

/** Every class of server.xml (listeners, resources, realms, valves) Tomcat cannot load, as error findings at the className. */
export function serverClassProblems(
  base: Pick<CatalinaBase, 'serverXml' | 'base' | 'home'>,
  target: string,
  extraJars: boolean = baseHasJars(base),
): Diagnostic[] {
  const server = base.serverXml;
  if (!server) return [];
  const all: ConfigElement[] = [...server.listeners, ...server.globalResources];
  for (const s of server.services) {
    if (!s.engine) continue;
    all.push(...s.engine.realms, ...s.engine.valves);
    for (const h of s.engine.hosts) all.push(...h.valves, ...h.listeners, ...h.contexts.flatMap((c) => c.valves));
  }
  const out: Diagnostic[] = [];
  const report = (e: ConfigElement, message: string) =>
    out.push({
      ruleId: 'server-class-not-found',
      severity: 'error',
      message: `<${e.tag}> ${message}`,
      span: e.className!.span,
    });
  let why: string | null;
  for (const e of elements(all)) {
    const cls = e.className?.value;
    if (!cls) continue;
    const removed = REMOVED[cls];
    if (removed)
      report(
        e,
        `${cls} no longer exists (removed in Tomcat ${removed}): Tomcat ${target} cannot load this server.xml ("Cannot start server. Server instance is not configured"). Remove the element.`,
      );
    else if ((why = notLoadable(e.tag, cls, extraJars))) report(e, why);
    else if (!STOCK.test(cls) && !extraJars)
      report(
        e,
        `${cls} is not on the stock Tomcat class path, and this base has no lib/*.jar: without the library's jars Tomcat refuses the whole server.xml (ClassNotFoundException). Add the jars to lib/ or remove the element.`,
      );
  }
  return out;
}
