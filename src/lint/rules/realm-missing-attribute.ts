import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts (what the realm's startInternal checks), which the plan reads too. */
export const rule: Rule = {
  meta: {
    id: 'realm-missing-attribute',
    description:
      'A Realm lacks a setting its start needs on the targeted Tomcat (a DataSourceRealm without userTable, userNameCol or userCredCol, or with only one of userRoleTable and roleNameCol).',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat 10.1 does not start the realm ("No user table was specified") and does not deploy the context it belongs to; 9.0 did not check (observed).',
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'a realm of server.xml (Engine or Host): the realm does not start, so nothing authenticates against it',
      },
    ],
    category: 'correctness',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'missing-attribute')
        ctx.report({ message: f.message, span: f.span, ...(f.refuses ? {} : { effect: 'misbehaves' as const }) });
  },
};
