import type { UserDef } from '../../model/index.js';
import type { LintContext } from '../types.js';

// Two rules ask: answered once per run (one contexts array per run) instead of testing every context twice.
const deployed = new WeakMap<LintContext['contexts'], boolean>();

/** Whether the base deploys the host manager (a context named host-manager, or whose docBase is one). */
export function hostManagerDeployed(ctx: LintContext): boolean {
  let answer = deployed.get(ctx.contexts);
  if (answer === undefined) {
    // endsWith, as /host-manager\/?$/ did: "$" without the m flag is the end of the text only.
    answer = ctx.base.hosts.some((h) => h.contexts.some((c) => c.path === '/host-manager' || c.docBase.endsWith('host-manager') || c.docBase.endsWith('host-manager/')));
    deployed.set(ctx.contexts, answer);
  }
  return answer;
}

export function hasRole(u: UserDef, role: string): boolean {
  return u.roles.some((r) => r.value === role);
}

/** A stored password that is a CredentialHandler digest (hex, or salt$iterations$hex). */
export function isDigest(password: string): boolean {
  return /^[0-9a-f]{32,}$/i.test(password) || /^[0-9a-f]*\$\d+\$[0-9a-f]+$/i.test(password) || /^\{[A-Z0-9-]+\}/.test(password);
}
