import { fileStartSpan } from '../../model/index.js';
import { propertyOf } from '../../parser/index.js';
import type { Rule } from '../types.js';

const KEY = 'org.apache.catalina.STRICT_SERVLET_COMPLIANCE';

export const rule: Rule = {
  meta: {
    id: 'strict-servlet-compliance-off',
    description: 'Tomcat does not run in strict servlet compliance (org.apache.catalina.STRICT_SERVLET_COMPLIANCE is not true).',
    defaultSeverity: 'warning', effect: 'weakens', reason: 'Tomcat applies its lenient defaults instead of the servlet specification\'s.',
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-223002', 'cis-tomcat-10.1:10.6'],
    // Tomcat's default (false) is deliberate: strict mode changes behaviour applications rely on.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const props = ctx.base.catalinaProperties;
    const entry = props ? propertyOf(props, KEY) : undefined;
    if (entry?.value.value.trim().toLowerCase() === 'true') return;
    const file = props?.file ?? ctx.base.serverXml?.file;
    if (!file) return;
    ctx.report({
      message: entry
        ? `${KEY}=${entry.value.value}: the benchmarks ask for true (Tomcat then always sends a charset in Content-Type and applies the stricter Context defaults).`
        : `${KEY} is not set in conf/catalina.properties (Tomcat's default is false). The benchmarks ask for true; if it is set with -D in bin/setenv.sh, tollgate cannot see it: suppress this finding with the reason.`,
      span: entry?.value.span ?? fileStartSpan(file),
    });
  },
};
