import type { WebXml } from '../../model/index.js';
import type { Rule } from '../types.js';
import { javaBoolean, missingInEveryLayer, perDescriptor, siteOf } from './webapp.js';

const CLASSES = new Set([
  'org.apache.catalina.filters.HttpHeaderSecurityFilter',
  'org.vendor.container.filters.HttpHeaderSecurityFilter',
]);

/** Whether a descriptor maps to /* a header filter of its own that sends HSTS. */
const sendsHsts = perDescriptor((w: WebXml): boolean => {
  const names = new Set<string>();
  for (const f of w.filters) {
    if (!f.className || !CLASSES.has(f.className.value.trim())) continue;
    const p = f.initParams.find((x) => x.name.value === 'hstsEnabled');
    if (!p || javaBoolean(p.value.value.trim())) names.add(f.name.value);
  }
  return (
    names.size > 0 &&
    w.filterMappings.some((m) => names.has(m.filterName.value) && m.urlPatterns.some((p) => p.value.trim() === '/*'))
  );
});

export const rule: Rule = {
  meta: {
    id: 'hsts-missing',
    description:
      'No HttpHeaderSecurityFilter with HSTS is mapped to /* for an application (conf/web.xml ships it commented out).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat sends no Strict-Transport-Security for the application, so the first request can be downgraded.',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['stig-tomcat:V-222928'],
    // Tomcat ships without it: only the benchmark asks (cis/stig profiles).
    profiles: { recommended: 'off' },
  },
  visit: (ctx) =>
    missingInEveryLayer(
      ctx,
      sendsHsts,
      (c) =>
        `No HttpHeaderSecurityFilter with hstsEnabled is mapped to /* for ${siteOf(c)} (Tomcat's conf/web.xml has it commented out): no response carries Strict-Transport-Security, so browsers may be downgraded to plain HTTP. Uncomment the httpHeaderSecurity filter and its mapping in conf/web.xml, with a real hstsMaxAgeSeconds (DISA STIG V-222928).`,
    ),
};
