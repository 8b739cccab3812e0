import { fileStartSpan } from '../../model/index.js';
import { jvmProperty } from '../../parser/index.js';
import type { Rule } from '../types.js';

const KEY = 'java.security.manager';

export const rule: Rule = {
  meta: {
    id: 'security-manager-off',
    description: 'bin/setenv.sh does not start Tomcat under the Java Security Manager (no -Djava.security.manager).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      "Without a Security Manager, Tomcat lets every application's code do whatever the operating system account may (read conf/, open sockets, run programs); catalina.policy is not applied.",
    category: 'security',
    securitySeverity: 4.0,
    benchmarks: ['stig-tomcat:V-222936'],
    // Tomcat starts without one unless told (-security); the Security Manager is deprecated in Java 17
    // and gone in Tomcat 11, and only the STIG asks for it.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const setenv = ctx.base.setenv;
    const option = setenv ? jvmProperty(setenv, KEY) : undefined;
    // `allow` and `disallow` only say whether code may install one later (Java 18+): none is installed.
    const value = option?.value.value.trim().toLowerCase();
    if (option && value !== 'allow' && value !== 'disallow') return;
    const file = setenv?.file ?? ctx.base.serverXml?.file;
    if (!file) return;
    ctx.report({
      message: option
        ? `-D${KEY}=${option.value.value} installs no Security Manager (it only ${value === 'allow' ? 'lets code install one later' : 'forbids installing one'}). Start Tomcat with -security, which adds -D${KEY} -Djava.security.policy==conf/catalina.policy.`
        : `${setenv ? `No start-up option (${setenv.file.replace(/^.*[\\/]/, '')} and the files read with it)` : 'No bin/setenv.sh, so nothing'} adds -D${KEY}: Tomcat runs without the Security Manager and catalina.policy is not applied. The STIG asks for it (start with catalina.sh start -security; on Debian SECURITY_MANAGER=true in /etc/default/tomcat10). When the service already starts Tomcat with -security, tollgate cannot see it: suppress this finding with that reason.`,
      span: option?.span ?? fileStartSpan(file),
    });
  },
};
