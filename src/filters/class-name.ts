import { refuse, type Note } from './define.js';
import { patternText, reader } from './values.js';

/** Packages whose classes ship with the JDK or Tomcat: tollgate knows all of their classes that a parameter could name. */
export const PLATFORM =
  /^(java|javax|jdk|sun|com\.sun|org\.apache\.catalina|org\.apache\.tomcat|org\.apache\.coyote)\./;

/** A fully-qualified Java class name, checked only for syntax (Class.forName fails otherwise). */
export function isJavaClassName(name: string): boolean {
  return /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(name);
}

/**
 * A class an init-param names, which the filter loads with Class.forName from
 * Tomcat's own class loader (CATALINA_HOME/lib or CATALINA_BASE/lib, never
 * WEB-INF/lib) and instantiates with a public no-argument constructor.
 * `accepted` are the platform classes that work; any other platform class is
 * refused at start-up. Other classes cannot be checked: a warning says so.
 */
export function classNameParam(
  defaultValue: string,
  description: string,
  opts: { accepted: readonly string[]; what: string; runtimeNote: string },
) {
  return reader(
    patternText('^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$', 'a fully-qualified Java class name'),
    { description, default: defaultValue, examples: [...opts.accepted] },
    (v, ctx) => {
      if (!isJavaClassName(v)) refuse(ctx, `"${v}" is not a Java class name: Class.forName fails`);
      else if (PLATFORM.test(v) && !opts.accepted.includes(v)) {
        refuse(
          ctx,
          `${v} is not ${opts.what} with a public no-argument constructor, so the filter cannot create it. Use ${opts.accepted.join(' or ')}`,
        );
      }
      return v;
    },
    () => defaultValue,
    (v: unknown): Note[] =>
      typeof v === 'string' && isJavaClassName(v) && !PLATFORM.test(v)
        ? [
            {
              ruleId: 'filter-param-invalid',
              severity: 'warning',
              message: `tollgate cannot check ${v}: Tomcat loads it from its own lib directory (not WEB-INF/lib) and refuses to start when it is missing or not ${opts.what}. ${opts.runtimeNote}`,
            },
          ]
        : [],
  );
}
