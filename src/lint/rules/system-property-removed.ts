import { propertyOf } from '../../parser/index.js';
import type { Rule } from '../types.js';

/** System properties the benchmarks name that Tomcat 10.1 no longer reads, and the Connector attribute that replaced each. */
const REPLACED: Record<string, string> = {
  'org.apache.catalina.connector.RECYCLE_FACADES': 'discardFacades (default true)',
  'org.apache.catalina.connector.CoyoteAdapter.ALLOW_BACKSLASH': 'allowBackslash (default false)',
  'org.apache.tomcat.util.buf.UDecoder.ALLOW_ENCODED_SLASH': 'encodedSolidusHandling (default "reject")',
  'org.apache.catalina.connector.response.ENFORCE_ENCODING_IN_GET_WRITER': 'enforceEncodingInGetWriter (default true)',
};

export const rule: Rule = {
  meta: {
    id: 'system-property-removed',
    description:
      'conf/catalina.properties or a -D option in bin/setenv.sh sets a system property Tomcat 10.1 no longer reads (RECYCLE_FACADES, ALLOW_BACKSLASH, ALLOW_ENCODED_SLASH, ENFORCE_ENCODING_IN_GET_WRITER).',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat 10.1 no longer reads the property: setting it changes nothing.',
    category: 'compatibility',
  },
  check(ctx) {
    const props = ctx.base.catalinaProperties;
    const options = ctx.base.setenv?.properties ?? [];
    for (const [key, attribute] of Object.entries(REPLACED)) {
      const where = [
        ...(props ? [propertyOf(props, key)?.key.span] : []),
        ...options.filter((o) => o.name.value === key).map((o) => o.span),
      ];
      for (const span of where) {
        if (!span) continue;
        ctx.report({
          message: `${key} has no effect in Tomcat 10.1: the Connector attribute ${attribute} replaced it. Set that attribute on each <Connector> instead, if you need a value other than the default.`,
          span,
        });
      }
    }
  },
};
