/**
 * Thrown by tollgate/lint, tollgate/compile and tollgate/schema when what they were given cannot
 * be used: a path that is no CATALINA_BASE, web application or configuration file, an unreadable
 * tollgate.config.json or baseline. The message names the file (file:line:column where there is one).
 * A problem inside a configuration is never thrown: it is a finding.
 */
export class TollgateInputError extends Error {
  override name = 'TollgateInputError';
}
