import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts over the catalogue of the targeted Tomcat (src/catalogue). */
export const rule: Rule = {
  meta: {
    id: 'attribute-invalid-value',
    description:
      'An attribute of server.xml or a context file whose value Tomcat cannot convert to the setter\'s type (maxThreads="lots", sessionTimeout="30m").',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat logs "Match [...] failed to set property [name] to [value]" and keeps the default (observed).',
    category: 'correctness',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'invalid-value') ctx.report({ message: f.message, span: f.span });
  },
};
