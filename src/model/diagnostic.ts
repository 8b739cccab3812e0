import type { Span } from './span.js';

export type Severity = 'error' | 'warning' | 'info';

/**
 * What real Tomcat 10.1 does with the configuration a finding is about: the reason for its
 * severity (README's policy, listed rule by rule in docs/severity.md).
 * - refuses: Tomcat does not start the context (or the server): error.
 * - misbehaves: Tomcat starts and certainly does something unintended or unsafe: error.
 * - ignores: Tomcat ignores the setting or it has no effect, with a log line or without certain harm: warning.
 * - weakens: Tomcat does what is written, and that weakens security: warning.
 * - notes: worth knowing: info.
 * - tollgate: about tollgate's own reading of the files (a file it cannot read, a suppression), not about Tomcat.
 */
export type TomcatEffect = 'refuses' | 'misbehaves' | 'ignores' | 'weakens' | 'notes' | 'tollgate';

/** The severity each effect gets (tollgate's own findings choose theirs). */
export const SEVERITY_OF_EFFECT: Readonly<Record<Exclude<TomcatEffect, 'tollgate'>, Severity>> = {
  refuses: 'error',
  misbehaves: 'error',
  ignores: 'warning',
  weakens: 'warning',
  notes: 'info',
};

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
  /**
   * What Tomcat does, where the rule id and severity do not say it: an error Tomcat starts with
   * ('misbehaves') from a rule whose other errors are refusals. What decides which contexts start
   * must read this (lint's effectOf), never the severity alone.
   */
  effect?: TomcatEffect;
}
