import { fileStartSpan } from '../../model/index.js';
import { propertyOf } from '../../parser/index.js';
import type { Rule } from '../types.js';

/** The packages Tomcat 10.1's catalina.properties protects. */
const DEFAULTS = ['sun.', 'org.apache.catalina.', 'org.apache.coyote.', 'org.apache.jasper.', 'org.apache.tomcat.'];

export const rule: Rule = {
  meta: {
    id: 'package-access-weakened',
    description: 'conf/catalina.properties no longer protects a package Tomcat protects (package.access).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat lets applications reach internal packages it normally protects.',
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['cis-tomcat-10.1:8.1'],
    // package.access only binds under a SecurityManager; without one removing entries changes nothing.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const props = ctx.base.catalinaProperties;
    if (!props) return;
    const entry = propertyOf(props, 'package.access');
    const listed = (entry?.value.value ?? '').split(',').map((p) => p.trim());
    const missing = DEFAULTS.filter((d) => !listed.some((p) => p !== '' && d.startsWith(p)));
    if (missing.length === 0) return;
    ctx.report({
      message: `package.access ${entry ? 'leaves out' : 'is not set, so nothing protects'} ${missing.join(', ')}: under a SecurityManager applications may then use Tomcat's internals directly. Keep Tomcat's list (sun.,org.apache.catalina.,org.apache.coyote.,org.apache.jasper.,org.apache.tomcat.).`,
      span: entry?.value.span ?? fileStartSpan(props.file),
    });
  },
};
