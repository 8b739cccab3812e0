import type { Located } from '../../model/index.js';
import type { Rule } from '../types.js';
import { layersOf, siteOf } from './webapp.js';

export const rule: Rule = {
  meta: {
    id: 'session-tracking-url',
    description: '<tracking-mode>URL</tracking-mode>: session ids are written into URLs.',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat writes session ids into URLs, where logs and Referer headers leak them.',
    category: 'security',
    securitySeverity: 5.0,
  },
  visit(ctx) {
    const seen = new Set<Located<string>>();
    return {
      context(c) {
        // The application's tracking modes replace the defaults' when it lists any.
        const modes = layersOf(ctx.base, c).find((w) => (w.trackingModes?.length ?? 0) > 0)?.trackingModes ?? [];
        const url = modes.find((m) => m.value.trim() === 'URL');
        if (!url || seen.has(url)) return;
        seen.add(url);
        const cookie = modes.some((m) => m.value.trim() === 'COOKIE');
        ctx.report({
          message: `Session tracking by URL for ${siteOf(c)}: Tomcat writes ";jsessionid=..." into the links it encodes${cookie ? ' whenever the browser has not yet sent the cookie' : ' on every page'}, where it leaks into logs, Referer headers and shared links, and a link someone else made fixes your session. List only <tracking-mode>COOKIE</tracking-mode>.`,
          span: url.span,
        });
      },
    };
  },
};
