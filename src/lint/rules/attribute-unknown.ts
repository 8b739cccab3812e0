import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts over the catalogue of the targeted Tomcat (src/catalogue). */
export const rule: Rule = {
  meta: {
    id: 'attribute-unknown',
    description:
      'An attribute of server.xml or a context file that no setter of the element takes on the targeted Tomcat (a Tomcat 7 attribute, a connector TLS attribute on 10.1, a typo).',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'Tomcat logs "Match [...] failed to set property [name] to [value]" and goes on without the setting (observed).',
    category: 'compatibility',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'unknown-attribute') ctx.report({ message: f.message, span: f.span });
  },
};
