import { fileStartSpan } from '../../model/index.js';
import { jvmProperty, propertyOf } from '../../parser/index.js';
import type { Rule } from '../types.js';

const KEY = 'org.apache.catalina.STRICT_SERVLET_COMPLIANCE';

export const rule: Rule = {
  meta: {
    id: 'strict-servlet-compliance-off',
    description:
      'Tomcat does not run in strict servlet compliance (org.apache.catalina.STRICT_SERVLET_COMPLIANCE is not true in conf/catalina.properties or bin/setenv.sh).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: "Tomcat applies its lenient defaults instead of the servlet specification's.",
    category: 'security',
    securitySeverity: 2.0,
    benchmarks: ['stig-tomcat:V-223002', 'cis-tomcat-10.1:10.6'],
    // Tomcat's default (false) is deliberate: strict mode changes behaviour applications rely on.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const props = ctx.base.catalinaProperties;
    // Tomcat registers every catalina.properties entry as a system property at start-up, over a -D of the same name.
    const entry = props ? propertyOf(props, KEY) : undefined;
    const option = !entry && ctx.base.setenv ? jvmProperty(ctx.base.setenv, KEY) : undefined;
    const set = entry?.value ?? option?.value;
    if (set?.value.trim().toLowerCase() === 'true') return;
    const file = props?.file ?? ctx.base.serverXml?.file;
    if (!set && !file) return;
    ctx.report({
      message: set
        ? `${KEY}=${set.value}: the benchmarks ask for true (Tomcat then always sends a charset in Content-Type and applies the stricter Context defaults).`
        : `${KEY} is set neither in conf/catalina.properties nor with -D in bin/setenv.sh (Tomcat's default is false). The benchmarks ask for true.`,
      span: set?.span ?? fileStartSpan(file!),
    });
  },
};
