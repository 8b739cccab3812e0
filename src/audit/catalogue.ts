import { CIS_TOMCAT_10_1, CIS_TOMCAT_10_1_V1_0_0 } from './cis-tomcat-10.1.js';
import { STIG_TOMCAT, STIG_TOMCAT_V2R1 } from './stig-tomcat.js';

/** The benchmarks tollgate audits against, as RuleMeta.benchmarks names them (`<benchmark>:<control>`). */
export const BENCHMARKS = ['cis-tomcat-10.1', 'stig-tomcat'] as const;
export type BenchmarkId = (typeof BENCHMARKS)[number];

/**
 * When a control applies only to some bases, the fact of the base that decides it (see
 * report.ts). `manager`: the STIG and CIS say a control about the manager application is not
 * a finding when the manager is not deployed.
 */
export type Applicability = 'manager';

/** A STIG rule's severity, as DISA states it (CAT I = high, CAT II = medium, CAT III = low). */
export type StigSeverity = 'high' | 'medium' | 'low';

export const CAT_OF: Record<StigSeverity, 'CAT I' | 'CAT II' | 'CAT III'> = {
  high: 'CAT I',
  medium: 'CAT II',
  low: 'CAT III',
};

/** One control of a benchmark, as the benchmark states it (facts, not Tomcat's verdict). */
export interface Control {
  /** The benchmark's own number: `2.5` (CIS recommendation), `V-222935` (STIG vulnerability id). */
  id: string;
  title: string;
  /** CIS: `Level 1` / `Level 2`; STIG: the category with its severity, `CAT II (medium)`. */
  level: string;
  /**
   * The control's severity: for the STIG DISA's own (high = CAT I); for CIS, which states none,
   * high for nothing, medium for Level 1 and low for Level 2 (what HDF and XCCDF need a value for).
   */
  severity: StigSeverity;
  /** STIG: the category, `CAT I` / `CAT II` / `CAT III`. */
  cat?: 'CAT I' | 'CAT II' | 'CAT III';
  /** STIG: the CCI identifiers the rule maps to (`CCI-000213`). */
  cci?: readonly string[];
  /** STIG: the NIST SP 800-53 controls those CCIs map to (`AC-3`, `IA-5 (1) (c)`). */
  nist?: readonly string[];
  /** The STIG rule's version id (TCAT-AS-...), which STIG Viewer shows beside the V- id. */
  stigId?: string;
  /** What to change to comply: one line, in tollgate's words. */
  fix?: string;
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
  /** The release as its publisher names it: `V3R4` (STIG), `v1.1.0` (CIS). */
  release: string;
  /** The release's own version for `--benchmark-version`: `3.4`, `1.1.0`. */
  version: string;
  /** The date the publisher gives the release (ISO date), where a public listing states it. */
  releaseDate?: string;
  /** Where the control list comes from. */
  source: string;
  controls: readonly Control[];
}

/** Every release tollgate knows of each benchmark, newest first (`--benchmark-version` picks an older one). */
export const RELEASES: Record<BenchmarkId, readonly Benchmark[]> = {
  'cis-tomcat-10.1': [CIS_TOMCAT_10_1, CIS_TOMCAT_10_1_V1_0_0],
  'stig-tomcat': [STIG_TOMCAT, STIG_TOMCAT_V2R1],
};

/** The newest release of each benchmark. */
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
