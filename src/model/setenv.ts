import type { Located, Span } from './span.js';

/** One `-D` option of the JVM command line as bin/setenv.sh builds it. */
export interface JvmProperty {
  /** The property name (after `-D`, before the first `=`). */
  name: Located<string>;
  /** The value after `=`; `''` for a bare `-Dname` (the JVM then sets the property to the empty string). */
  value: Located<string>;
  /** The variable the option is assigned to: CATALINA_OPTS or JAVA_OPTS. */
  variable: string;
  /** The whole `-Dname=value` word. */
  span: Span;
}

/**
 * `bin/setenv.sh` of the base (else of the home), which catalina.sh sources before it builds the
 * JVM command line: the `-D` options its CATALINA_OPTS / JAVA_OPTS assignments add, and UMASK.
 */
export interface SetenvFile {
  file: string;
  /** Every `-D` option in file order; the JVM keeps the last of a repeated name. */
  properties: JvmProperty[];
  /** The value of the last `UMASK=` assignment (catalina.sh uses 0027 when it is unset). */
  umask: Located<string> | null;
  /**
   * The option variables (JAVA_OPTS, CATALINA_OPTS) this file assigns without its earlier value
   * (`JAVA_OPTS="-Dx"`, not `JAVA_OPTS="$JAVA_OPTS -Dx"`): what files read before it set there is gone.
   */
  resets?: readonly string[];
}
