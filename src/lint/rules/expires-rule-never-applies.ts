import { boundedMemo } from '../../protocol/memo.js';
import type { Rule } from '../types.js';

/** Why a rule of this ExpiresByType name can never apply, or null. */
function whyNever(name: string): string | null {
  const type = name.slice('ExpiresByType'.length).trim();
  if (type === '') return 'it names no content type';
  if (/;\s+/.test(type))
    return `Tomcat keys it as "${type.toLowerCase()}" with the blank, but compares it with the response's "${type.replace(/;\s+/, ';').toLowerCase()}": write no blank after ";"`;
  if (!/^[A-Za-z0-9!#$&^_.+-]+(\/[A-Za-z0-9!#$&^_.+*-]+)?(;.+)?$/.test(type)) return `"${type}" is not a content type`;
  if (type.includes('*'))
    return '"*" is not a wildcard here: name the major type alone ("ExpiresByType image") to cover all its subtypes';
  return null;
}

// The verdict depends on the name alone, and applications repeat the same names: remembered for the process (at most
// 1,000 names of up to 256 characters, so that hostile input cannot make it hold much).
const verdictOf = boundedMemo(whyNever, 1_000, 256);

export const rule: Rule = {
  meta: {
    id: 'expires-rule-never-applies',
    description: 'An ExpiresByType rule whose content type can never match a response.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      'Tomcat starts and never applies the rule, so the responses it was written for get no Expires or Cache-Control max-age.',
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['expires'],
    filter(f) {
      for (const p of f.def.initParams) {
        const name = p.name.value;
        if (!name.startsWith('ExpiresByType')) continue;
        const why = verdictOf(name);
        if (why) ctx.report({ message: `${name} never applies: ${why}.`, span: p.name.span });
      }
    },
  }),
};
