import { z } from 'zod';
import { javaBoolean, javaInt, text } from './values.js';
import { defineFilter, param } from './define.js';

const OPTIONS = ['DENY', 'SAMEORIGIN', 'ALLOW-FROM'] as const;

export const spec = defineFilter({
  id: 'http-header-security',
  simpleName: 'HttpHeaderSecurityFilter',
  description: 'Adds Strict-Transport-Security, X-Frame-Options, X-Content-Type-Options and X-XSS-Protection.',
  configProblemsAreFatal: true,
  params: {
    hstsEnabled: param('boolean', javaBoolean(true, 'Send Strict-Transport-Security on secure responses (replacing any).')),
    hstsMaxAgeSeconds: param('integer', javaInt(0, 'max-age of Strict-Transport-Security; negative counts as 0. 0 tells browsers to forget HSTS.')),
    hstsIncludeSubDomains: param('boolean', javaBoolean(false, 'Add includeSubDomains.')),
    hstsPreload: param('boolean', javaBoolean(false, 'Add preload.')),
    antiClickJackingEnabled: param('boolean', javaBoolean(true, 'Send X-Frame-Options (replacing any).')),
    antiClickJackingOption: param(
      'string',
      z
        .string()
        .transform((v, ctx) => {
          const o = OPTIONS.find((x) => x === v.trim().toUpperCase());
          if (!o) {
            ctx.addIssue({ code: 'custom', message: `"${v}" is not DENY, SAMEORIGIN or ALLOW-FROM: Tomcat refuses to start the filter` });
            return z.NEVER;
          }
          return o;
        })
        .default('DENY')
        // The enum drives editor completion; the pattern accepts every case, as Tomcat does.
        .meta({ description: 'X-Frame-Options value (case-insensitive).', anyOf: [{ enum: [...OPTIONS] }, { pattern: '^([Dd][Ee][Nn][Yy]|[Ss][Aa][Mm][Ee][Oo][Rr][Ii][Gg][Ii][Nn]|[Aa][Ll][Ll][Oo][Ww]-[Ff][Rr][Oo][Mm])$' }], default: 'DENY' }),
      { default: 'DENY', examples: [...OPTIONS] },
    ),
    antiClickJackingUri: param('string', text('', 'The URI allowed to frame the page when the option is ALLOW-FROM.')),
    blockContentTypeSniffingEnabled: param('boolean', javaBoolean(true, 'Send X-Content-Type-Options: nosniff.')),
    xssProtectionEnabled: param('boolean', javaBoolean(true, 'Send X-XSS-Protection: 1; mode=block (removed in Tomcat 11).'), { removedIn: '11.0' }),
  },
  toConfig: (v, _raw, ctx) => {
    const uri = v.antiClickJackingUri;
    if (v.antiClickJackingEnabled && v.antiClickJackingOption === 'ALLOW-FROM' && !isJavaUri(uri)) {
      ctx.addIssue({ code: 'custom', path: ['antiClickJackingUri'], message: `antiClickJackingUri "${uri}" is not a valid URI, which ALLOW-FROM needs: Tomcat refuses to start the filter` });
    }
    const maxAge = Math.max(0, v.hstsMaxAgeSeconds);
    let sts = `max-age=${maxAge}`;
    if (v.hstsIncludeSubDomains) sts += ';includeSubDomains';
    if (v.hstsPreload) sts += ';preload';
    return {
      hstsEnabled: v.hstsEnabled,
      hstsMaxAgeSeconds: maxAge,
      hstsIncludeSubDomains: v.hstsIncludeSubDomains,
      hstsPreload: v.hstsPreload,
      /** The Strict-Transport-Security value, built once. */
      hstsHeaderValue: sts,
      antiClickJackingEnabled: v.antiClickJackingEnabled,
      antiClickJackingOption: v.antiClickJackingOption,
      antiClickJackingUri: uri,
      /** The X-Frame-Options value, built once. */
      antiClickJackingHeaderValue: v.antiClickJackingOption === 'ALLOW-FROM' ? `ALLOW-FROM ${uri}` : v.antiClickJackingOption,
      blockContentTypeSniffingEnabled: v.blockContentTypeSniffingEnabled,
      xssProtectionEnabled: v.xssProtectionEnabled,
    };
  },
});
export type HttpHeaderSecurityConfig = ReturnType<typeof spec.schema.parse>;

/** java.net.URI accepts an empty string and relative references, but not spaces or stray characters. */
function isJavaUri(uri: string): boolean {
  return /^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$/.test(uri) && !/%(?![0-9A-Fa-f]{2})/.test(uri);
}
