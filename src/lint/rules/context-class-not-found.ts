import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts, which the plan reads too: the context (or every context) is refused. */
export const rule: Rule = {
  meta: {
    id: 'context-class-not-found',
    description:
      'A context file (conf/context.xml, context.xml.default, conf/<Engine>/<Host>/*.xml, META-INF/context.xml) names a class Tomcat cannot load: a third-party Manager or Listener without its jar, a class the version removed.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat cannot parse the context file ("Parse error in context.xml", ClassNotFoundException) and does not start the context; conf/context.xml stops every context (observed).',
    category: 'correctness',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'class-not-found' && f.scope) ctx.report({ message: f.message, span: f.span });
  },
};
