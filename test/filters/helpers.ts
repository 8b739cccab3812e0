import type { Diagnostic, FilterDef } from '../../src/model/index.js';
import { filterSpecById, validateFilterDef, type TomcatTarget } from '../../src/filters/index.js';
import { parseWebXml } from '../../src/parser/index.js';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A web.xml with one <filter> of the given catalina class and init-params (in order; duplicates allowed). */
export function filterXml(
  simpleClass: string,
  params: Record<string, string> | [string, string][],
): { def: FilterDef; text: string } {
  const entries = Array.isArray(params) ? params : Object.entries(params);
  const body = entries
    .map(
      ([k, v]) =>
        `\n    <init-param>\n      <param-name>${escapeXml(k)}</param-name>\n      <param-value>${escapeXml(v)}</param-value>\n    </init-param>`,
    )
    .join('');
  const text = `<web-app>\n  <filter>\n    <filter-name>f</filter-name>\n    <filter-class>org.apache.catalina.filters.${simpleClass}</filter-class>${body}\n  </filter>\n</web-app>\n`;
  return { def: parseWebXml(text, '/app/WEB-INF/web.xml').webXml!.filters[0]!, text };
}

/** validateFilterDef on such a web.xml, with a helper that shows the text each diagnostic points at. */
export function validate(
  simpleClass: string,
  params: Record<string, string> | [string, string][],
  target?: TomcatTarget,
) {
  const { def, text } = filterXml(simpleClass, params);
  const result = validateFilterDef(def, target ? { target } : {});
  const at = (d: Diagnostic) => text.slice(d.span.offset, d.span.endOffset);
  const only = (ruleId: string) => {
    const found = result.diagnostics.filter((d) => d.ruleId === ruleId);
    if (found.length !== 1)
      throw new Error(`expected one ${ruleId}, got ${JSON.stringify(result.diagnostics.map((d) => d.ruleId))}`);
    return found[0]!;
  };
  return { ...result, text, at, only };
}

/** The config the schema of a filter gives for a params object (strings or JSON types). */
export function parse(id: string, params: Record<string, unknown>): Record<string, unknown> {
  return filterSpecById(id)!.schema.parse(params) as Record<string, unknown>;
}

/** Whether the schema refuses the params (Tomcat would not start the filter). */
export function refuses(id: string, params: Record<string, unknown>): boolean {
  return !filterSpecById(id)!.schema.safeParse(params).success;
}
