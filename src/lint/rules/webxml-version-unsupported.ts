import type { Rule } from '../types.js';

/** The highest web-app version each Tomcat understands (newer ones log "Unknown version string"). */
const MAX_VERSION: Record<string, number> = { '9.0': 4.0, '10.1': 6.0, '11.0': 6.1 };

export const rule: Rule = {
  meta: {
    id: 'webxml-version-unsupported',
    description: 'A web-app version newer than the target Tomcat understands.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason: 'Tomcat logs "Unknown version string" and reads the file as its default version.',
    category: 'compatibility',
  },
  visit(ctx) {
    const max = MAX_VERSION[ctx.target]!;
    // Applications declare the same few versions: the last one's verdict is kept.
    let last: string | undefined;
    let newer = false;
    return {
      descriptor({ webXml }) {
        const v = webXml.version;
        if (!v) return;
        if (v.value !== last) {
          last = v.value;
          newer = /^\d+\.\d+$/.test(v.value.trim()) && Number(v.value) > max;
        }
        if (!newer) return;
        ctx.report({
          message: `web-app version="${v.value}" is newer than Tomcat ${ctx.target} understands (up to ${max.toFixed(1)}): Tomcat logs "Unknown version string [${v.value}]. Default version will be used." Declare ${max.toFixed(1)}.`,
          span: v.span,
        });
      },
    };
  },
};
