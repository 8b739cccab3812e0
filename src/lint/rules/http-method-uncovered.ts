import type { Located, SecurityConstraint, WebResourceCollection } from '../../model/index.js';
import type { Rule } from '../types.js';
import { layersOf } from './webapp.js';

interface Partial {
  /** The union of the listed methods of the collections naming the pattern with <http-method>s. */
  methods: Set<string>;
  /** The intersection of the omitted methods of the collections naming it with <http-method-omission>s; null when none does. */
  omitted: Set<string> | null;
  /** Where the first method list for the pattern is written. */
  at: Located<string>;
  /** Whether a constraint listing methods for it asks for a login. */
  authenticated: boolean;
}

/**
 * Tomcat's SecurityConstraint.findUncoveredHttpMethods: a URL pattern named by some collection
 * with neither <http-method> nor <http-method-omission> is covered for every method; otherwise the
 * methods the lists leave out are uncovered, so no constraint applies to them.
 */
function uncovered(constraints: readonly SecurityConstraint[]): { pattern: string; partial: Partial; open: string }[] {
  const covered = new Set<string>();
  const partial = new Map<string, Partial>();
  for (const sc of constraints) {
    for (const col of sc.collections) {
      if (col.httpMethods.length === 0 && col.httpMethodOmissions.length === 0) {
        for (const p of col.urlPatterns) covered.add(p.value);
        continue;
      }
      for (const p of col.urlPatterns) {
        if (covered.has(p.value)) continue;
        let e = partial.get(p.value);
        if (!e) partial.set(p.value, (e = { methods: new Set(), omitted: null, at: first(col), authenticated: false }));
        e.authenticated ||= sc.authRoles !== null && sc.authRoles.length > 0;
        if (col.httpMethods.length > 0) {
          for (const m of col.httpMethods) e.methods.add(m.value);
        } else {
          const om = new Set(col.httpMethodOmissions.map((m) => m.value));
          e.omitted = e.omitted === null ? om : new Set([...e.omitted].filter((m) => om.has(m)));
        }
      }
    }
  }
  const out: { pattern: string; partial: Partial; open: string }[] = [];
  for (const [pattern, e] of partial) {
    if (covered.has(pattern)) continue;
    if (e.omitted === null) {
      out.push({ pattern, partial: e, open: `every method but ${[...e.methods].join(' ')}` });
      continue;
    }
    // An omitted method that some other collection lists is covered after all.
    const open = [...e.omitted].filter((m) => !e.methods.has(m));
    if (open.length > 0) out.push({ pattern, partial: e, open: open.join(' ') });
  }
  return out;
}

function first(col: WebResourceCollection): Located<string> {
  return col.httpMethods[0] ?? col.httpMethodOmissions[0]!;
}

export const rule: Rule = {
  meta: {
    id: 'http-method-uncovered',
    description:
      'A security constraint lists HTTP methods, leaving every other method of its URL patterns unconstrained (verb tampering).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason: 'Tomcat constrains only the listed methods: every other method reaches the URLs unconstrained.',
    category: 'security',
    securitySeverity: 7.0,
  },
  visit(ctx) {
    const seen = new Set<Located<string>>();
    return {
      context(c) {
        const layers = layersOf(ctx.base, c);
        const constraints: SecurityConstraint[] = [];
        for (const w of layers) for (const sc of w.securityConstraints ?? []) constraints.push(sc);
        if (constraints.length === 0) return;
        // <deny-uncovered-http-methods/> is read from the application's own web.xml only (WebXml.merge leaves it alone).
        if (c.context.webXml?.denyUncoveredHttpMethods) return;
        for (const u of uncovered(constraints)) {
          if (seen.has(u.partial.at)) continue;
          seen.add(u.partial.at);
          ctx.report({
            message: `The security constraints on ${u.pattern} cover only some HTTP methods: ${u.open} ${u.open.startsWith('every') ? 'reaches' : 'reach'} the resource without ${u.partial.authenticated ? 'any login' : 'the constraint'} (Tomcat 10.1 logs "For security constraints with URL pattern [${u.pattern}] ... are uncovered" and serves them: with only GET constrained, HEAD and POST got the page without a login, observed on Tomcat 10.1). Remove the <http-method> list so the constraint covers every method, or add <deny-uncovered-http-methods/> to the application's web.xml.`,
            span: u.partial.at.span,
          });
        }
      },
    };
  },
};
