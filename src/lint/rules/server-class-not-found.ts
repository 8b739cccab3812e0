import type { ConfigElement } from '../../model/index.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

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
  meta: { id: 'server-class-not-found', description: 'server.xml names a class stock Tomcat does not have: Tomcat cannot load the file and does not start.', defaultSeverity: 'error', category: 'correctness' },
  check(ctx) {
    const server = ctx.base.serverXml;
    if (!server) return;
    const all: ConfigElement[] = [...server.listeners, ...server.globalResources];
    for (const s of server.services) {
      if (!s.engine) continue;
      all.push(...s.engine.realms, ...s.engine.valves);
      for (const h of s.engine.hosts) all.push(...h.valves, ...h.listeners, ...h.contexts.flatMap((c) => c.valves));
    }
    for (const e of elements(all)) {
      const cls = e.className?.value;
      if (!cls) continue;
      const removed = REMOVED[cls];
      if (removed) {
        ctx.report({ message: `<${e.tag}> ${cls} no longer exists (removed in Tomcat ${removed}): Tomcat ${ctx.target} cannot load this server.xml ("Cannot start server. Server instance is not configured"). Remove the element.`, span: e.className!.span });
      } else if (!/^(org\.apache\.(catalina|tomcat|coyote|naming|jasper)|org\.vendor\.container)\./.test(cls) && !hasExtraJars(ctx)) {
        ctx.report({ message: `<${e.tag}> ${cls} is not on the stock Tomcat class path, and this base has no lib/*.jar: without the library's jars Tomcat refuses the whole server.xml (ClassNotFoundException). Add the jars to lib/ or remove the element.`, span: e.className!.span });
      }
    }
  },
};
