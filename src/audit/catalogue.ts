import { CIS_TOMCAT_10_1 } from './cis-tomcat-10.1.js';
import { STIG_TOMCAT } from './stig-tomcat.js';

/** The benchmarks tollgate audits against, as RuleMeta.benchmarks names them (`<benchmark>:<control>`). */
export const BENCHMARKS = ['cis-tomcat-10.1', 'stig-tomcat'] as const;
export type BenchmarkId = (typeof BENCHMARKS)[number];

/**
 * When a control applies only to some bases, the fact of the base that decides it (see
 * report.ts). `manager`: the STIG and CIS say a control about the manager application is not
 * a finding when the manager is not deployed.
 */
export type Applicability = 'manager';

/** One control of a benchmark, as the benchmark states it (facts, not Tomcat's verdict). */
export interface Control {
  /** The benchmark's own number: `2.5` (CIS recommendation), `V-222935` (STIG vulnerability id). */
  id: string;
  title: string;
  /** CIS: `Level 1` / `Level 2`; STIG: the category with its severity, `CAT II (medium)`. */
  level: string;
  /** The STIG rule's version id (TCAT-AS-...), which STIG Viewer shows beside the V- id. */
  stigId?: string;
  /**
   * What to check by hand when no rule decides the control from the files (permissions,
   * start-up options, the host, the organisation's documents): one line.
   */
  check: string;
  appliesWhen?: Applicability;
}

export interface Benchmark {
  id: BenchmarkId;
  title: string;
  /** Where the control list comes from. */
  source: string;
  controls: readonly Control[];
}

export const CATALOGUE: Record<BenchmarkId, Benchmark> = {
  'cis-tomcat-10.1': CIS_TOMCAT_10_1,
  'stig-tomcat': STIG_TOMCAT,
};

/** `cis-tomcat-10.1:2.5` -> the benchmark and control id; null for anything else. */
export function parseBenchmarkRef(ref: string): { benchmark: BenchmarkId; control: string } | null {
  const at = ref.indexOf(':');
  const benchmark = ref.slice(0, at) as BenchmarkId;
  if (at < 0 || !BENCHMARKS.includes(benchmark)) return null;
  return { benchmark, control: ref.slice(at + 1) };
}
