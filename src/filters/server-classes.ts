import type { CatalinaBase, Diagnostic } from '../model/index.js';
import type { TomcatTarget } from './spec.js';
import { baseHasJars, digestBase } from './digester.js';

export { baseHasJars };

/**
 * The classes server.xml names that the targeted Tomcat cannot load (src/catalogue says which it has):
 * the digester's ObjectCreateRule throws ClassNotFoundException, Catalina cannot read server.xml and
 * the server does not start ("Cannot start server. Server instance is not configured", observed with a
 * misspelt StoreConfigLifecycleListener and with JasperListener: test/fixtures/tomcat-observed/rules.json).
 * The lint rule server-class-not-found reports each; the plan refuses the server for the first.
 */
export function serverClassProblems(
  base: CatalinaBase,
  target: TomcatTarget,
  extraJars: boolean = baseHasJars(base),
): Diagnostic[] {
  const file = base.serverXml?.file;
  return digestBase(base, { target, extraJars })
    .filter((f) => f.kind === 'class-not-found' && f.file === file)
    .map((f) => ({ ruleId: 'server-class-not-found', severity: 'error', message: f.message, span: f.span }));
}
