import type { Rule } from '../types.js';

/** catalina.sh: `if [ -z "$UMASK" ]; then UMASK="0027"; fi; umask $UMASK`. */
const DEFAULT = 0o027;

export const rule: Rule = {
  meta: {
    id: 'umask-too-open',
    description:
      "bin/setenv.sh sets a UMASK that lets Tomcat create files others can read or its group can write (looser than catalina.sh's 0027).",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Log files, expanded WARs and session files Tomcat writes become readable by other accounts on the host.',
    category: 'security',
    securitySeverity: 3.5,
    benchmarks: ['stig-tomcat:V-222949'],
  },
  check(ctx) {
    const setenv = ctx.base.setenv;
    if (!setenv) return;
    const umask = setenv.umask;
    if (umask) {
      const v = umask.value.trim();
      // umask reads an octal number; anything else makes catalina.sh's `umask` fail and keep the shell's.
      const bits = /^[0-7]{1,4}$/.test(v) ? parseInt(v, 8) : null;
      if (bits === null || (bits & DEFAULT) !== DEFAULT) {
        ctx.report({
          message:
            bits === null
              ? `UMASK=${v} is not an octal mask: catalina.sh's umask command fails and Tomcat keeps the umask it was started with. Set UMASK=0027.`
              : `UMASK=${v} lets Tomcat create files ${(bits & 0o007) !== 0o007 ? 'other accounts can read' : 'its group can write'} (logs, expanded WARs, sessions). catalina.sh's default is 0027; the STIG asks for 0027.`,
          span: umask.span,
        });
      }
    }
  },
};
