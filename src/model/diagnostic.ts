import type { Span } from './span.js';

export type Severity = 'error' | 'warning' | 'info';

/** A replacement of the text a range of the decoded file covers. */
export interface TextEdit {
  file: string;
  offset: number;
  endOffset: number;
  text: string;
}

/**
 * A problem found in user input. Diagnostics are values: every stage returns
 * them next to its result and none throws on bad input.
 */
export interface Diagnostic {
  /** Readable rule id (`cors-credentials-with-any-origin`), also used in suppression comments. */
  ruleId: string;
  severity: Severity;
  message: string;
  span: Span;
  /** A safe, automatic fix (`--fix` applies it). */
  fix?: TextEdit[];
  /** Related places (e.g. the other duplicate), shown as notes. */
  related?: { message: string; span: Span }[];
  /**
   * The benchmark controls this finding fails (`cis-tomcat-10.1:7.3`), when the rule decides several and
   * the finding is about only some of them (a context without an access log fails the per-context
   * control, not the engine's). Absent: every control of the rule's RuleMeta.benchmarks.
   */
  benchmarks?: readonly string[];
}
