import type { Rule } from '../types.js';
import { javaBoolean, rootSpan } from './webapp.js';

const CLASSES = new Set(['org.apache.catalina.filters.HttpHeaderSecurityFilter', 'org.vendor.container.filters.HttpHeaderSecurityFilter']);

export const rule: Rule = {
  meta: {
    id: 'hsts-missing',
    description: 'conf/web.xml maps no HttpHeaderSecurityFilter with HSTS to /*: applications send no Strict-Transport-Security unless they add one.',
    defaultSeverity: 'warning',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['stig-tomcat:V-222928'],
  },
  check(ctx) {
    const global = ctx.base.globalWebXml;
    if (!global) return;
    const sending = new Set(
      global.filters
        .filter((f) => f.className && CLASSES.has(f.className.value.trim()))
        .filter((f) => {
          const p = f.initParams.find((x) => x.name.value === 'hstsEnabled');
          return !p || javaBoolean(p.value.value.trim());
        })
        .map((f) => f.name.value),
    );
    const mapped = global.filterMappings.some((m) => sending.has(m.filterName.value) && m.urlPatterns.some((p) => p.value.trim() === '/*'));
    if (mapped) return;
    ctx.report({
      message: 'conf/web.xml maps no HttpHeaderSecurityFilter with hstsEnabled to /* (Tomcat ships it commented out): no response carries Strict-Transport-Security unless an application maps its own filter, so browsers may be downgraded to plain HTTP. Uncomment the httpHeaderSecurity filter and its mapping (DISA STIG V-222928).',
      span: rootSpan(global),
    });
  },
};
