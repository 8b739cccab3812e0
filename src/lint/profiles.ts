import type { Severity } from '../model/index.js';
import type { Profile, RuleMeta } from './types.js';

/** The benchmark each hardening profile follows, as the prefix of RuleMeta.benchmarks entries. */
export const PROFILE_BENCHMARK: Record<Exclude<Profile, 'recommended'>, string> = {
  cis: 'cis-tomcat-10.1',
  stig: 'stig-tomcat',
};

/**
 * A rule's level in a profile: 'off', a severity every finding takes, or 'reported' (the severity
 * each finding was reported with). See RuleMeta.profiles for the resolution.
 */
export function profileLevel(meta: RuleMeta, profile: Profile): Severity | 'off' | 'reported' {
  const own = meta.profiles?.[profile];
  if (own !== undefined) return own;
  const recommended = meta.profiles?.recommended ?? 'reported';
  if (profile === 'recommended' || recommended !== 'off') return recommended;
  const prefix = `${PROFILE_BENCHMARK[profile]}:`;
  return meta.benchmarks?.some((b) => b.startsWith(prefix)) ? 'reported' : 'off';
}

/** How a RuleMeta.benchmarks entry reads for people: `CIS 2.5`, `STIG V-222935`. */
export function benchmarkLabel(ref: string): string {
  const at = ref.indexOf(':');
  const name = ref.slice(0, at);
  if (name === PROFILE_BENCHMARK.cis) return `CIS ${ref.slice(at + 1)}`;
  if (name === PROFILE_BENCHMARK.stig) return `STIG ${ref.slice(at + 1)}`;
  return ref;
}
