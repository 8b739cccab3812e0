import { digestBase } from '../../filters/digester.js';
import type { Rule } from '../types.js';
import { hasExtraJars } from './util.js';

/** The judgment is src/filters/digester.ts, which the plan reads too. */
export const rule: Rule = {
  meta: {
    id: 'connector-protocol-not-found',
    description:
      'A Connector names a protocol handler the targeted Tomcat does not have (Http11AprProtocol and AjpAprProtocol are gone in 10.1).',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'Tomcat logs "Protocol handler instantiation failed" (ClassNotFoundException) and does not start the connector (observed).',
    variants: [
      {
        severity: 'error',
        effect: 'refuses',
        when: 'with executor= or sslImplementationName= on the connector the digester itself fails: "Cannot start server. Server instance is not configured" (observed on 10.1.60)',
      },
    ],
    category: 'compatibility',
  },
  check(ctx) {
    for (const f of digestBase(ctx.base, { target: ctx.target, extraJars: hasExtraJars(ctx) }))
      if (f.kind === 'protocol-not-found') ctx.report({ message: f.message, span: f.span });
  },
};
