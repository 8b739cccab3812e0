import { contextSites, isTrue, siteName } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'context-allow-linking',
    description:
      'An application serves files through symbolic links that leave its directory (Resources allowLinking="true").',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat serves files through links that leave the application's directory.",
    category: 'security',
    securitySeverity: 5.3,
    benchmarks: ['cis-tomcat-10.1:10.12'],
  },
  check(ctx) {
    for (const site of contextSites(ctx.base)) {
      // allowLinking on <Context> itself is an attribute Tomcat 10.1 does not have: attribute-unknown reports it.
      for (const r of site.def.children ?? []) {
        const a = r.tag === 'Resources' ? r.attributes['allowLinking'] : undefined;
        if (!isTrue(a)) continue;
        ctx.report({
          message: `<Resources allowLinking="true"> in ${siteName(site)}: the application serves whatever a symbolic link inside it points at, anywhere on the file system, and on case-insensitive file systems JSP source can be disclosed. Remove it (the default is false).`,
          span: a!.span,
        });
      }
    }
  },
};
