import { isAbsolute, resolve } from 'node:path';
import type { Diagnostic, Span } from '../model/index.js';
import { configPosition, type Waiver } from '../lint/config.js';
import type { Acceptance } from './report.js';

/**
 * The waivers of tollgate.config.json (`audit.waivers`) as a matcher: a finding of a control is
 * accepted by the first waiver naming that control (or the finding's rule), and the file when the
 * waiver names one. A waiver past its `expires` day still says it covers the finding, but expired:
 * the control fails and the report shows the expired acceptance.
 */
export function waiverMatcher(
  waivers: readonly Waiver[],
  base: string,
  configPath: string | null,
  now: Date,
): (ref: string, d: Diagnostic) => Acceptance | null {
  if (waivers.length === 0) return () => null;
  const today = now.toISOString().slice(0, 10);
  const declared = waivers.map((_, i): Span | undefined => {
    if (!configPath) return undefined;
    const { line, column } = configPosition(configPath, ['audit', 'waivers', i]);
    return { file: configPath, line, column, endLine: line, endColumn: column, offset: 0, endOffset: 0 };
  });
  const files = waivers.map((w) => (w.file === undefined ? null : isAbsolute(w.file) ? w.file : resolve(base, w.file)));
  return (ref, d) => {
    const i = waivers.findIndex(
      (w, k) =>
        (w.control === undefined || w.control === ref) &&
        (w.rule === undefined || w.rule === d.ruleId) &&
        (files[k] === null || files[k] === d.span.file),
    );
    if (i < 0) return null;
    const w = waivers[i]!;
    const at = declared[i];
    return {
      diagnostic: d,
      source: 'waiver',
      justification: w.justification,
      by: w.by,
      ...(w.expires !== undefined ? { expires: w.expires } : {}),
      expired: w.expires !== undefined && w.expires < today,
      ...(at ? { declared: at } : {}),
    };
  };
}
