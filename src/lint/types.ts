import type { ResolvedContext } from '../chain/index.js';
import type { MergedFilter, MergedFilterMapping } from '../chain/index.js';
import type { FilterSpec, TomcatTarget } from '../filters/index.js';
import type { CatalinaBase, Diagnostic, FilterDef, Severity, SourceFile, Span, TextEdit, WebXml } from '../model/index.js';

export type RuleCategory = 'correctness' | 'security' | 'compatibility' | 'hygiene';

export interface RuleMeta {
  /** Readable id, also what users write in suppressions and config. */
  id: string;
  description: string;
  defaultSeverity: Severity;
  category: RuleCategory;
  /** SARIF security-severity (0-10) for security rules. */
  securitySeverity?: number;
  fixable?: boolean;
}

/** One descriptor with its role in the base. */
export interface DescriptorRef {
  webXml: WebXml;
  /** conf/web.xml, a host's web.xml.default, an app's WEB-INF/tomcat-web.xml or its WEB-INF/web.xml. */
  role: 'global' | 'host-default' | 'tomcat-web' | 'app';
}

/** A filter definition as validated once for the whole run. */
export interface CheckedFilter {
  def: FilterDef;
  spec: FilterSpec | null;
  config: unknown | null;
  descriptor: DescriptorRef;
}

/** One place a filter definition runs: a merged mapping of a context that resolves its name to that definition. */
export interface FilterUse {
  context: ResolvedContext;
  mapping: MergedFilterMapping;
}

export interface LintContext {
  base: CatalinaBase;
  target: TomcatTarget;
  descriptors: DescriptorRef[];
  contexts: ResolvedContext[];
  /** Every <filter> of every descriptor, validated once. */
  filters: CheckedFilter[];
  /** The validated filter behind a merged filter of a context. */
  checked(filter: MergedFilter): CheckedFilter | undefined;
  /** Every mapping, in every context, that applies this definition (indexed once per run). */
  usesOf(filter: CheckedFilter): FilterUse[];
  source(file: string): SourceFile | undefined;
  report(d: { message: string; span: Span; severity?: Severity; fix?: TextEdit[]; related?: Diagnostic['related'] }): void;
}

export interface Rule {
  meta: RuleMeta;
  /** Rules that only own diagnostics produced by the parser, merge or validation have no check. */
  check?: (ctx: LintContext) => void;
}
