import type { JvmProperty } from '../../model/index.js';
import { jvmProperty } from '../../parser/index.js';
import type { Rule } from '../types.js';

const P = 'com.sun.management.jmxremote';

/** The JVM's management agent opens a remote JMX connector only when com.sun.management.jmxremote.port is given. */
function remotePort(props: readonly JvmProperty[]): boolean {
  return props.some((p) => p.name.value === `${P}.port`);
}

export const rule: Rule = {
  meta: {
    id: 'jmx-remote-unprotected',
    description:
      'bin/setenv.sh opens remote JMX with com.sun.management.jmxremote.authenticate=false or com.sun.management.jmxremote.ssl=false.',
    defaultSeverity: 'error',
    effect: 'misbehaves',
    reason:
      "Anyone who reaches the JMX port can run code in Tomcat's JVM without a password (MBeans such as MLet load remote classes).",
    variants: [
      {
        severity: 'warning',
        effect: 'weakens',
        when: 'ssl=false: the JMX password (when authentication is on) and every MBean call cross the network in clear text',
      },
    ],
    category: 'security',
    securitySeverity: 9.0,
    benchmarks: ['stig-tomcat:V-222963', 'stig-tomcat:V-222964'],
  },
  check(ctx) {
    const setenv = ctx.base.setenv;
    if (!setenv || !remotePort(setenv.properties)) return;
    // The JVM defaults both to true; only an explicit false (any case, Boolean.parseBoolean) turns them off.
    const off = (name: string): JvmProperty | undefined => {
      const p = jvmProperty(setenv, `${P}.${name}`);
      return p && p.value.value.trim().toLowerCase() !== 'true' ? p : undefined;
    };
    const auth = off('authenticate');
    if (auth) {
      ctx.report({
        message: `-D${P}.authenticate=${auth.value.value} with a JMX port: whoever reaches the port controls Tomcat's JVM (reads every MBean, stops applications, loads classes) without a password. Remove it (the JVM's default is true) and give a password and access file.`,
        span: auth.span,
        benchmarks: ['stig-tomcat:V-222963'],
      });
    }
    const ssl = off('ssl');
    if (ssl) {
      ctx.report({
        message: `-D${P}.ssl=${ssl.value.value} with a JMX port: JMX ${auth ? 'traffic' : 'passwords and traffic'} cross the network in clear text. Remove it (the JVM's default is true) and configure the JMX key store.`,
        span: ssl.span,
        severity: 'warning',
        benchmarks: ['stig-tomcat:V-222964'],
      });
    }
  },
};
