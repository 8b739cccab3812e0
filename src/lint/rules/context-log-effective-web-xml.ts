import { contextAttribute, contextChain, isTrue, startTag } from '../hardening.js';
import { fileStartSpan } from '../../model/index.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'context-log-effective-web-xml',
    description:
      "An application does not log its effective web.xml at start-up (logEffectiveWebXml is false, Tomcat's default).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat does not log the web.xml it actually runs, so its merged configuration cannot be reviewed.',
    category: 'hygiene',
    benchmarks: ['cis-tomcat-10.1:10.18'],
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (isTrue(contextAttribute(contextChain(ctx.base, host, c), 'logEffectiveWebXml'))) continue;
        const own = c.contextDef;
        ctx.report({
          message: `The context ${c.path === '' ? '/ (ROOT)' : c.path} does not set logEffectiveWebXml="true": the merged descriptor it really runs (fragments and annotations included) is not logged for review (CIS 10.18). Set it on the Context or in conf/context.xml.`,
          span: own ? startTag(own.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase),
        });
      }
    }
  },
};
