import type { UserDef } from '../../model/index.js';
import type { LintContext } from '../types.js';

/** Whether the base deploys the host manager (a context named host-manager, or whose docBase is one). */
export function hostManagerDeployed(ctx: LintContext): boolean {
  return ctx.base.hosts.some((h) => h.contexts.some((c) => c.path === '/host-manager' || /host-manager\/?$/.test(c.docBase)));
}

export function hasRole(u: UserDef, role: string): boolean {
  return u.roles.some((r) => r.value === role);
}

/** A stored password that is a CredentialHandler digest (hex, or salt$iterations$hex). */
export function isDigest(password: string): boolean {
  return /^[0-9a-f]{32,}$/i.test(password) || /^[0-9a-f]*\$\d+\$[0-9a-f]+$/i.test(password) || /^\{[A-Z0-9-]+\}/.test(password);
}
