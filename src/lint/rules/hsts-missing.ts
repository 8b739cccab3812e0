import type { WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { perDescriptor, javaBoolean, layersOf, rootSpan } from './webapp.js';

const CLASSES = new Set(['org.apache.catalina.filters.HttpHeaderSecurityFilter', 'org.vendor.container.filters.HttpHeaderSecurityFilter']);

/** Whether a descriptor maps to /* a header filter of its own that sends HSTS. */
const sendsHsts = perDescriptor((w: WebXml): boolean => {
  const names = new Set<string>();
  for (const f of w.filters) {
    if (!f.className || !CLASSES.has(f.className.value.trim())) continue;
    const p = f.initParams.find((x) => x.name.value === 'hstsEnabled');
    if (!p || javaBoolean(p.value.value.trim())) names.add(f.name.value);
  }
  return names.size > 0 && w.filterMappings.some((m) => names.has(m.filterName.value) && m.urlPatterns.some((p) => p.value.trim() === '/*'));
});

export const rule: Rule = {
  meta: {
    id: 'hsts-missing',
    description: 'No HttpHeaderSecurityFilter with HSTS is mapped to /* for an application (conf/web.xml ships it commented out).',
    defaultSeverity: 'warning',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['stig-tomcat:V-222928'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit(ctx) {
    const reported = new Set<WebXml>();
    return {
      context(c) {
        const layers = layersOf(ctx.base, c);
        if (layers.some(sendsHsts)) return;
        // conf/web.xml's filter reaches every application, so that is where one fix covers all.
        const where = ctx.base.globalWebXml ?? c.context.webXml;
        if (!where || reported.has(where)) return;
        reported.add(where);
        ctx.report({
          message: `No HttpHeaderSecurityFilter with hstsEnabled is mapped to /* for ${c.host.name}${c.context.path || '/'} (Tomcat's conf/web.xml has it commented out): no response carries Strict-Transport-Security, so browsers may be downgraded to plain HTTP. Uncomment the httpHeaderSecurity filter and its mapping in conf/web.xml, with a real hstsMaxAgeSeconds (DISA STIG V-222928).`,
          span: rootSpan(where),
        });
      },
    };
  },
};
