import { FILTER_SPECS, suggestParam } from '../../filters/index.js';
import type { Located } from '../../model/index.js';
import type { Rule } from '../types.js';

/** Tomcat's filter package, and the spec's name for it. */
const PACKAGES = ['org.apache.catalina.filters', 'org.vendor.container.filters'];

/** Classes of that package that exist but cannot be a <filter-class>: abstract bases and constants. */
const NOT_FILTERS: Record<string, string> = {
  FilterBase: "the abstract base class of Tomcat's filters",
  RequestFilter: 'the abstract base of RemoteAddrFilter and RemoteHostFilter',
  CsrfPreventionFilterBase: 'the abstract base of CsrfPreventionFilter and RestCsrfPreventionFilter',
  Constants: 'a class of constants, not a filter',
};

const SIMPLE_NAMES = FILTER_SPECS.map((s) => s.simpleName);

/** A package that is probably a misspelling of Tomcat's (org.apache.catalina.filter, org.apache.tomcat.filters). */
function nearTomcatPackage(pkg: string): boolean {
  return pkg.startsWith('org.apache.') && /filters?$/.test(pkg);
}

/**
 * Whether `typed` is surely a slip for `known`, safe to rewrite: the same
 * letters in another case or order, or one letter added, dropped or changed.
 * Anything further gets a suggestion only (RemoteFilter could be any of four).
 */
function surelyMeant(typed: string, known: string): boolean {
  const a = typed.toLowerCase();
  const b = known.toLowerCase();
  if (a === b || [...a].sort().join('') === [...b].sort().join('')) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const tail = (x: string, skip: number) => x.slice(i + skip);
  return tail(a, 1) === tail(b, 1) || tail(a, 1) === tail(b, 0) || tail(a, 0) === tail(b, 1);
}

/** The edit replacing the class name, when its span covers exactly its text (no entities, no surrounding blanks). */
function replace(cls: Located<string>, text: string) {
  const s = cls.span;
  return s.endOffset - s.offset === cls.value.length
    ? [{ file: s.file, offset: s.offset, endOffset: s.endOffset, text }]
    : undefined;
}

export const rule: Rule = {
  meta: {
    id: 'unknown-filter-class',
    description:
      "A <filter-class> in Tomcat's filter package that Tomcat does not have (a misspelling, or an abstract base class).",
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'The class does not exist or cannot be instantiated: the filter fails to load and the context does not start.',
    category: 'correctness',
    fixable: true,
  },
  visit: (ctx) => ({
    filter(f) {
      const cls = f.def.className;
      if (!cls || f.spec) return;
      const name = cls.value.trim();
      const dot = name.lastIndexOf('.');
      const pkg = name.slice(0, Math.max(0, dot));
      const simple = name.slice(dot + 1);
      if (PACKAGES.includes(pkg)) {
        const what = NOT_FILTERS[simple];
        if (what) {
          ctx.report({
            message: `${simple} is ${what}: Tomcat cannot instantiate it, so the filter and the application do not start.`,
            span: cls.span,
          });
          return;
        }
        const guess = suggestParam(simple, SIMPLE_NAMES);
        const fix =
          guess.length === 1 && surelyMeant(simple, guess[0]!) ? replace(cls, `${pkg}.${guess[0]}`) : undefined;
        ctx.report({
          message: `Tomcat has no class ${name}: the filter fails to load (ClassNotFoundException) and the application does not start.${guess.length ? ` Did you mean ${guess.join(' or ')}?` : ''}`,
          span: cls.span,
          ...(fix ? { fix } : {}),
        });
      } else if (nearTomcatPackage(pkg)) {
        const known = SIMPLE_NAMES.find((s) => s === simple);
        if (!known) return;
        const fix = replace(cls, `${PACKAGES[0]}.${known}`);
        ctx.report({
          message: `Tomcat's ${known} is org.apache.catalina.filters.${known}, not ${name}: this class does not exist, so the filter fails to load and the application does not start.`,
          span: cls.span,
          ...(fix ? { fix } : {}),
        });
      }
    },
  }),
};
