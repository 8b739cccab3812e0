import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'doctype-mixed-ids',
    description: 'A DOCTYPE whose public id and system id name different Servlet versions.',
    defaultSeverity: 'warning',
    effect: 'ignores',
    reason:
      'Tomcat resolves the DTD by its public id and ignores the system id, so the file is read as the version the public id names.',
    category: 'compatibility',
  },
  visit: (ctx) => ({
    descriptor({ webXml }) {
      const dt = webXml.doctype;
      if (!dt) return;
      const pub = /Web Application (\d\.\d)/.exec(dt.value)?.[1];
      const sys = /web-app_(\d)_(\d)\.dtd/.exec(dt.value);
      if (pub && sys && pub !== `${sys[1]}.${sys[2]}`) {
        ctx.report({
          message: `The DOCTYPE's public id names Servlet ${pub} but its system id the ${sys[1]}.${sys[2]} DTD: Tomcat resolves it by public id and treats the file as Servlet ${pub}. Make them agree.`,
          span: dt.span,
        });
      }
    },
  }),
};
