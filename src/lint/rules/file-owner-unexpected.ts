import { fileStartSpan } from '../../model/index.js';
import { accessOf, accountNames, expectedAccounts, isWholeBase, protectedPaths } from '../file-access.js';
import { scopeOf } from '../../parser/files.js';
import type { Rule } from '../types.js';

export const rule: Rule = {
  meta: {
    id: 'file-owner-unexpected',
    description:
      'A Tomcat folder or file on disk is not owned by the account and group the benchmark names (CIS 4.x, 7.4, 7.6: tomcat_admin:tomcat; STIG V-222986 to V-222991, V-222967: root:tomcat, tomcat:tomcat for logs, temp and work).',
    defaultSeverity: 'warning',
    effect: 'weakens',
    reason:
      'Tomcat starts whoever owns its files; when the account Tomcat runs as owns its configuration, a compromised application can rewrite it.',
    category: 'security',
    securitySeverity: 4.0,
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
      ...['V-222967', 'V-222986', 'V-222987', 'V-222988', 'V-222989', 'V-222991'].map((c) => `stig-tomcat:${c}`),
    ],
    // Which accounts exist is the host's business; the names come from config `accounts` (see the rule's page).
    profiles: { recommended: 'off' },
  },
  check(ctx) {
    if (!isWholeBase(ctx.base)) return;
    const want = expectedAccounts(ctx.accounts, ctx.profile);
    const { users, groups } = accountNames();
    // One path may be two controls' (CIS 4.1 and 4.2 when CATALINA_HOME is CATALINA_BASE): one finding failing both.
    const controls = new Map<string, string[]>();
    const keyOf = (p: { path: string; owner?: string; at?: { offset: number } }): string =>
      `${p.path}\0${p.owner ?? ''}\0${p.at?.offset ?? ''}`;
    for (const p of protectedPaths(ctx.base, ctx.profile))
      controls.set(keyOf(p), [...(controls.get(keyOf(p)) ?? []), p.control]);
    for (const p of protectedPaths(ctx.base, ctx.profile)) {
      if (!p.owner) continue;
      const all = controls.get(keyOf(p))!;
      if (all[0] !== p.control) continue;
      const a = accessOf(p.path, scopeOf(ctx.base));
      if (!a) continue;
      const user = users.get(a.uid) ?? String(a.uid);
      const group = groups.get(a.gid) ?? String(a.gid);
      const owner = want[p.owner];
      if (user === owner && group === want.group) continue;
      ctx.report({
        message: `${p.label} is owned by ${user}:${group}; the benchmark asks for ${owner}:${want.group} (chown ${owner}:${want.group} ${a.path}). Other names: "accounts" in tollgate.config.json.`,
        span: p.at ?? fileStartSpan(a.path),
        benchmarks: all,
      });
    }
  },
};
