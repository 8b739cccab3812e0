import { serverClassProblems } from '../../filters/server-classes.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/server-classes.ts, which the plan reads too: the server does not start. */
export const rule: Rule = {
  meta: {
    id: 'server-class-not-found',
    description: 'server.xml names a class stock Tomcat does not have: Tomcat cannot load the file and does not start.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: 'Tomcat cannot create the element (ClassNotFoundException) and the server does not start (observed).',
    category: 'correctness',
  },
  check(ctx) {
    for (const d of serverClassProblems(ctx.base, ctx.target, hasExtraJars(ctx)))
      ctx.report({ message: d.message, span: d.span });
  },
};
