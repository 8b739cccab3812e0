import type { Rule } from '../types.js';
import { filtersOf } from './util.js';

export const rule: Rule = {
  meta: { id: 'expires-rule-never-applies', description: 'An ExpiresByType rule whose content type can never match a response.', defaultSeverity: 'warning', category: 'correctness' },
  check(ctx) {
    for (const f of filtersOf(ctx, 'expires')) {
      for (const p of f.def.initParams) {
        const name = p.name.value;
        if (!name.startsWith('ExpiresByType')) continue;
        const type = name.slice('ExpiresByType'.length).trim();
        let why: string | null = null;
        if (type === '') why = 'it names no content type';
        else if (/;\s+/.test(type)) why = `Tomcat keys it as "${type.toLowerCase()}" with the blank, but compares it with the response's "${type.replace(/;\s+/, ';').toLowerCase()}": write no blank after ";"`;
        else if (!/^[A-Za-z0-9!#$&^_.+-]+(\/[A-Za-z0-9!#$&^_.+*-]+)?(;.+)?$/.test(type)) why = `"${type}" is not a content type`;
        else if (type.includes('*')) why = '"*" is not a wildcard here: name the major type alone ("ExpiresByType image") to cover all its subtypes';
        if (why) ctx.report({ message: `${name} never applies: ${why}.`, span: p.name.span });
      }
    }
  },
};
