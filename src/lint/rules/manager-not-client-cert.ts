import { fileStartSpan } from '../../model/index.js';
import { isAdminApp } from '../hardening.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'manager-not-client-cert',
    description:
      'The manager or host manager logs users in with a password (BASIC, FORM, DIGEST), not a client certificate (CLIENT-CERT).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat lets a password alone open the management application.',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['stig-tomcat:V-222993'],
    // Certificate-based tokens (CAC) are a DoD requirement: only the STIG asks.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        if (!isAdminApp(c) || !c.webXml) continue;
        const method = c.webXml.loginConfig?.authMethod;
        if (method?.value.trim().toUpperCase() === 'CLIENT-CERT') continue;
        ctx.report({
          message: `${c.path} logs users in with ${method ? method.value.trim() : "no <login-config> (BASIC by the manager's own web.xml defaults)"}: the STIG asks for certificate-based tokens (CAC), <auth-method>CLIENT-CERT</auth-method> on a connector with certificateVerification="required".`,
          span: method?.span ?? c.webXml.loginConfig?.span ?? fileStartSpan(c.webXml.file),
        });
      }
    }
  },
};
