import { suggestParam } from '../../filters/index.js';
import type { ConfigElement } from '../../model/index.js';
import { TOMCAT_CLASSES } from '../tomcat-classes.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

const STOCK = /^(org\.apache\.(catalina|tomcat|coyote|naming|jasper)|org\.vendor\.container)\./;
const ALL_STOCK = new Map<string, string>();
for (const [tag, list] of Object.entries(TOMCAT_CLASSES)) for (const c of list) ALL_STOCK.set(c, tag);

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
  if (elsewhere) return `${cls} is a ${elsewhere} class, not a ${tag}: Tomcat cannot use it here and does not start ("Cannot start server. Server instance is not configured").`;
  const guess = suggestParam(name, known);
  if (extraJars && guess.length === 0) return null;
  return `Tomcat 10.1 has no class ${cls} (ClassNotFoundException): it cannot read server.xml and does not start ("Cannot start server. Server instance is not configured", observed with a misspelt StoreConfigLifecycleListener).${guess.length > 0 ? ` Did you mean ${guess.join(' or ')}?` : ''}`;
}

/** Classes older server.xml files name that no longer exist in Tomcat 10.1 (with the version that removed them). */
const REMOVED: Record<string, string> = {
  'org.apache.catalina.core.JasperListener': '8.0',
  'org.apache.catalina.mbeans.ServerLifecycleListener': '7.0',
  'org.apache.catalina.core.JreMemoryLeakPreventionListener.classesToInitialize': '8.5',
  'org.apache.catalina.valves.CometConnectionManagerValve': '8.5',
  'org.apache.catalina.authenticator.SingleSignOnListener': '8.0',
  'org.apache.catalina.realm.JAASMemoryLoginModule': '10.0',
};

function* elements(list: ConfigElement[]): Generator<ConfigElement> {
  for (const e of list) {
    yield e;
    yield* elements(e.children);
  }
}

export const rule: Rule = {
  meta: { id: 'server-class-not-found', description: 'server.xml names a class stock Tomcat does not have: Tomcat cannot load the file and does not start.', defaultSeverity: 'error', effect: 'refuses', reason: 'Tomcat cannot create the element (ClassNotFoundException) and the server does not start.', category: 'correctness' },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server) return;
    const all: ConfigElement[] = [...server.listeners, ...server.globalResources];
    for (const s of server.services) {
      if (!s.engine) continue;
      all.push(...s.engine.realms, ...s.engine.valves);
      for (const h of s.engine.hosts) all.push(...h.valves, ...h.listeners, ...h.contexts.flatMap((c) => c.valves));
    }
    let why: string | null;
    for (const e of elements(all)) {
      const cls = e.className?.value;
      if (!cls) continue;
      const removed = REMOVED[cls];
      if (removed) {
        ctx.report({ message: `<${e.tag}> ${cls} no longer exists (removed in Tomcat ${removed}): Tomcat ${ctx.target} cannot load this server.xml ("Cannot start server. Server instance is not configured"). Remove the element.`, span: e.className!.span });
      } else if ((why = notLoadable(e.tag, cls, hasExtraJars(ctx)))) {
        ctx.report({ message: `<${e.tag}> ${why}`, span: e.className!.span });
      } else if (!STOCK.test(cls) && !hasExtraJars(ctx)) {
        ctx.report({ message: `<${e.tag}> ${cls} is not on the stock Tomcat class path, and this base has no lib/*.jar: without the library's jars Tomcat refuses the whole server.xml (ClassNotFoundException). Add the jars to lib/ or remove the element.`, span: e.className!.span });
      }
    }
  },
};
