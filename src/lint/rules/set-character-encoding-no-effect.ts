import type { Rule } from '../types.js';
import { filterSpan, paramOf } from './util.js';

export const rule: Rule = {
  meta: {
    id: 'set-character-encoding-no-effect',
    description:
      'SetCharacterEncodingFilter without ignore=true does nothing when the descriptor sets <request-character-encoding>.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat runs the filter but the request already has an encoding, so it never sets one.',
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['set-character-encoding'],
    filter(f) {
      const rce = f.descriptor.webXml.requestCharacterEncoding;
      const ignore = paramOf(f.def, 'ignore');
      if (!rce || (ignore && ignore.value.value.trim().toLowerCase() === 'true')) return;
      ctx.report({
        message: `This descriptor sets <request-character-encoding>${rce.value}</request-character-encoding>, so every request already has an encoding and SetCharacterEncodingFilter (without ignore=true) never sets one. Remove the filter or set ignore=true.`,
        span: ignore?.value.span ?? filterSpan(f.def),
        related: [{ message: 'request-character-encoding is set here', span: rce.span }],
      });
    },
  }),
};
