import { isJavaClassName, PLATFORM } from '../../filters/class-name.js';
import type { Rule } from '../types.js';
import { hasExtraJars, paramOf } from './util.js';

/**
 * Reported where the problem is found (parser, merge or filter validation); this registers its id, level and docs.
 * The one check here needs the base: the CSRF filters' randomClass is loaded with Class.forName from Tomcat's own
 * class path (lib/, never WEB-INF/lib), and Tomcat 10.1.60 refuses to start the application when it is missing
 * (observed: "Unable to create Random source using class [com.example.NoSuchRandom]"). With no lib/*.jar in the
 * base or home, a class outside the JDK and Tomcat cannot be there. Filter validation, which has no base, only
 * warns that it cannot check; this error on the same value supersedes that warning.
 */
export const rule: Rule = {
  meta: {
    id: 'filter-param-invalid',
    description: 'An init-param value the filter cannot read.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason: "The filter's init refuses the value and the context does not start.",
    variants: [
      {
        severity: 'error',
        effect: 'misbehaves',
        when: 'a value Tomcat starts with that breaks requests (an unknown charset is never applied, a nonce cache of 0 refuses every nonce, "mime:" alone throws, a status outside 100-599)',
      },
      { severity: 'warning', effect: 'tollgate', when: "a class tollgate cannot look for on Tomcat's class path" },
      { severity: 'info', effect: 'notes', when: 'encoding "system", which depends on the JVM' },
    ],
    category: 'correctness',
  },
  visit: (ctx) => ({
    kinds: ['csrf-prevention', 'rest-csrf-prevention'],
    filter(f) {
      const p = paramOf(f.def, 'randomClass');
      const cls = p?.value.value.trim();
      if (!p || !cls || !isJavaClassName(cls) || PLATFORM.test(cls) || hasExtraJars(ctx)) return;
      ctx.report({
        message: `randomClass: ${cls} is not on the stock Tomcat class path, and this base has no lib/*.jar: Tomcat loads it from its own lib directory (not WEB-INF/lib), fails with "Unable to create Random source" and does not start the application. Remove the parameter or add the library to lib/.`,
        span: p.value.span,
      });
    },
  }),
};
