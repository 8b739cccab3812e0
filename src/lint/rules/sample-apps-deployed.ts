import { join } from 'node:path';
import { fileStartSpan, type FileScope, type LoadedContext } from '../../model/index.js';
import { existsInScope, readTextInScope, scopeOf } from '../../parser/files.js';
import { startTag } from '../hardening.js';
import type { Rule } from '../types.js';

type Sample = { what: string; control: string[] };

const DOCS: Sample = { what: "Tomcat's documentation", control: ['cis-tomcat-10.1:1.1', 'stig-tomcat:V-222960'] };
const EXAMPLES: Sample = { what: "Tomcat's examples", control: ['cis-tomcat-10.1:1.1', 'stig-tomcat:V-222958'] };
const ROOT: Sample = { what: "Tomcat's default ROOT page", control: ['cis-tomcat-10.1:1.1', 'stig-tomcat:V-222959'] };

/** Servlets only the examples application has. */
const EXAMPLE_SERVLETS = /(?:^|\.)(?:HelloWorldExample|RequestInfoExample|SessionExample|CookieExample)$/;

/** Which of Tomcat's sample applications a context is, by the files Tomcat (and Debian) ship in them. */
function sampleOf(c: LoadedContext, scope: FileScope): Sample | null {
  const d = c.docBase;
  const existsSync = (p: string): boolean => existsInScope(p, scope);
  if (existsSync(join(d, 'RUNNING.txt')) && existsSync(join(d, 'BUILDING.txt'))) return DOCS;
  if (c.webXml?.servlets.some((s) => EXAMPLE_SERVLETS.test(s.className?.value.trim() ?? ''))) return EXAMPLES;
  if (c.path !== '') return null;
  // Tomcat's own ROOT (index.jsp with tomcat.svg and the release notes), or Debian's "It works !" page.
  if (existsSync(join(d, 'tomcat.svg')) && existsSync(join(d, 'RELEASE-NOTES.txt'))) return ROOT;
  // No index.html (or one not read): not Debian's page.
  const index = readTextInScope(join(d, 'index.html'), scope, 'latin1');
  if ('text' in index && index.text.includes('This is the default Tomcat home page')) return ROOT;
  return null;
}

export const rule: Rule = {
  meta: {
    id: 'sample-apps-deployed',
    description: "Tomcat's documentation, examples or default ROOT page is deployed.",
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat serves its sample applications to anyone: they name the product, its version and its paths, and the examples let visitors set session attributes and read request details.',
    category: 'security',
    securitySeverity: 3.0,
    benchmarks: ['cis-tomcat-10.1:1.1', 'stig-tomcat:V-222958', 'stig-tomcat:V-222959', 'stig-tomcat:V-222960'],
    // Tomcat and Debian install them on purpose for a first look; only the benchmarks ask to remove them.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    const scope = scopeOf(ctx.base);
    for (const host of ctx.base.hosts) {
      for (const c of host.contexts) {
        const sample = sampleOf(c, scope);
        if (!sample) continue;
        ctx.report({
          message: `${c.path === '' ? '/ (ROOT)' : c.path} is ${sample.what} (${c.docBase}): remove it from production${c.source === 'context-file' ? ' (delete its context file)' : ''}.`,
          span: c.contextDef ? startTag(c.contextDef.span, 'Context') : fileStartSpan(c.webXml?.file ?? c.docBase),
          benchmarks: sample.control,
        });
      }
    }
  },
};
