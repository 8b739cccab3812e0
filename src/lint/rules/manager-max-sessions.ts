import { fileStartSpan } from '../../model/index.js';
import { contextChain, contextElements, isAdminApp, startTag } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'manager-max-sessions',
    description:
      'The manager or host manager has no limit on concurrent sessions (no <Manager maxActiveSessions> of 0 or more).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat creates management sessions without limit (maxActiveSessions defaults to -1).',
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-222926'],
    // The number belongs to the installation's security plan: only the STIG asks for it.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (!isAdminApp(c)) continue;
        const chain = contextChain(ctx.base, host, c);
        // The last <Manager> Tomcat applies wins; StandardManager reads maxActiveSessions as an int, -1 for no limit.
        const managers = contextElements(chain, 'Manager');
        const limit = managers
          .map((m) => m.attributes['maxActiveSessions'])
          .filter((a) => a !== undefined)
          .pop();
        const n = limit && /^\s*-?\d+\s*$/.test(limit.value) ? Number(limit.value) : -1;
        if (n >= 0) continue;
        const own = c.contextDef;
        ctx.report({
          message: `${c.path}: ${limit ? `maxActiveSessions="${limit.value}" sets` : 'no <Manager maxActiveSessions> sets'} no limit on concurrent management sessions. The STIG asks for the number the security plan allows, e.g. <Manager maxActiveSessions="10"/> inside its <Context>.`,
          span: limit?.span ?? (own ? startTag(own.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase)),
        });
      }
    }
  },
};
