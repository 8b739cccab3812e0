import { fileStartSpan } from '../../model/index.js';
import { accessOf, filesIn, isWholeBase, octal, protectedPaths, type Access } from '../file-access.js';
import { scopeOf } from '../../parser/files.js';
import type { Rule } from '../types.js';

/** What a set of permission bits lets others do, in words. */
function lets(bits: number): string {
  const out: string[] = [];
  if (bits & 0o700 & ~0o600) out.push('its owner execute it');
  if (bits & 0o070 & 0o020) out.push('its group write it');
  else if (bits & 0o070) out.push(`its group ${bits & 0o040 ? 'read' : 'execute'} it`);
  if (bits & 0o007) out.push('every other account on the host reach it');
  return out.join(', ');
}

export const rule: Rule = {
  meta: {
    id: 'file-mode-too-open',
    description:
      'A Tomcat folder or file on disk has permission bits the benchmark forbids (CIS 4.x, 7.4, 7.6; STIG V-222943 to V-222948, V-222967, V-222990).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat starts whatever the modes are; other accounts on the host can read its passwords and keys, or change its configuration, applications or logs.',
    category: 'security',
    securitySeverity: 5.0,
    benchmarks: [
      ...[
        '4.1',
        '4.2',
        '4.3',
        '4.4',
        '4.5',
        '4.6',
        '4.7',
        '4.8',
        '4.9',
        '4.10',
        '4.11',
        '4.12',
        '4.13',
        '4.14',
        '4.15',
        '7.4',
        '7.6',
      ].map((c) => `cis-tomcat-10.1:${c}`),
      ...['V-222943', 'V-222944', 'V-222945', 'V-222946', 'V-222947', 'V-222948', 'V-222967', 'V-222990'].map(
        (c) => `stig-tomcat:${c}`,
      ),
    ],
    // The modes a checkout or a package leaves are the installer's business until a benchmark is audited;
    // each finding names its control, and only the profile's benchmark is judged.
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    if (!isWholeBase(ctx.base)) return;
    // One path may be two controls' (CIS 4.1 and 4.2 when CATALINA_HOME is CATALINA_BASE): one finding failing both.
    const controls = new Map<string, string[]>();
    const keyOf = (p: { path: string; forbidden?: number; each?: string; at?: { offset: number } }): string =>
      `${p.path}\0${p.forbidden}\0${p.each ?? ''}\0${p.at?.offset ?? ''}`;
    for (const p of protectedPaths(ctx.base, ctx.profile))
      controls.set(keyOf(p), [...(controls.get(keyOf(p)) ?? []), p.control]);
    for (const p of protectedPaths(ctx.base, ctx.profile)) {
      if (p.forbidden === undefined) continue;
      const all = controls.get(keyOf(p))!;
      if (all[0] !== p.control) continue;
      const targets: Access[] = p.each
        ? filesIn(p.path, scopeOf(ctx.base)).filter((f) => p.each === 'file' || f.path.endsWith('.jar'))
        : [accessOf(p.path, scopeOf(ctx.base))].filter((a): a is Access => a !== null);
      for (const a of targets) {
        const extra = a.mode & p.forbidden;
        if (extra === 0) continue;
        ctx.report({
          message: `${p.each ? a.path : p.label}${p.each ? ` (${p.label})` : ''} has mode ${octal(a.mode)}: it lets ${lets(extra)}. The benchmark asks for ${p.asked} (chmod ${octal(a.mode & ~p.forbidden)} ${a.path}).`,
          span: p.at && !p.each ? p.at : fileStartSpan(a.path),
          benchmarks: all,
        });
      }
    }
  },
};
