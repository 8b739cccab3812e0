import * as z from 'zod';
import { javaBoolean, javaInt, patternText, reader } from './values.js';
import { defineFilter, param, refuse } from './define.js';
import { checkJavaUri } from './java-text.js';
import type { ParamNote } from './spec.js';

const OPTIONS = ['DENY', 'SAMEORIGIN', 'ALLOW-FROM'] as const;
type FrameOption = (typeof OPTIONS)[number];

const frameOption = reader(
  z.union([
    z.enum(OPTIONS).meta({ title: 'X-Frame-Options value' }),
    patternText(
      '^([Dd][Ee][Nn][Yy]|[Ss][Aa][Mm][Ee][Oo][Rr][Ii][Gg][Ii][Nn]|[Aa][Ll][Ll][Oo][Ww]-[Ff][Rr][Oo][Mm])$',
      'web.xml text (case-insensitive)',
    ),
  ]),
  {
    description: 'X-Frame-Options value: DENY, SAMEORIGIN or ALLOW-FROM (case-insensitive).',
    default: 'DENY',
    examples: [...OPTIONS],
  },
  (v, ctx): FrameOption => {
    const o = OPTIONS.find((x) => x === v.toUpperCase());
    if (!o)
      refuse(
        ctx,
        `"${v}" is not DENY, SAMEORIGIN or ALLOW-FROM: the setter throws ("An invalid value [${v}] was specified for the anti click-jacking header")`,
      );
    return o ?? 'DENY';
  },
  (): FrameOption => 'DENY',
);

const frameUri = reader(
  patternText('^[^\\s"<>\\\\^`{|}]*$', 'web.xml text (a java.net.URI)'),
  {
    description: 'URI allowed to frame the page when the option is ALLOW-FROM (a java.net.URI).',
    examples: ['https://partner.example.com'],
  },
  (v, ctx): string | null => {
    const r = checkJavaUri(v);
    if (!r.ok)
      refuse(ctx, `"${v}" is not a URI java.net.URI accepts (${r.message}): the setter throws`, {
        offset: r.offset,
        length: 1,
      });
    return v;
  },
  (): string | null => null,
);

export const spec = defineFilter({
  id: 'http-header-security',
  simpleName: 'HttpHeaderSecurityFilter',
  description:
    'Adds Strict-Transport-Security (secure requests only), X-Frame-Options, X-Content-Type-Options and (before Tomcat 11, off by default) X-XSS-Protection.',
  configProblemsAreFatal: true,
  names: 'bean',
  params: {
    hstsEnabled: param(
      'boolean',
      javaBoolean(true, 'Send Strict-Transport-Security on responses to secure requests (replacing any).'),
    ),
    // A max-age of 0 (or negative, which Tomcat makes 0) is lint's hsts-max-age-zero.
    hstsMaxAgeSeconds: param(
      'integer',
      javaInt(0, 'max-age of Strict-Transport-Security; negative counts as 0. 0 tells browsers to forget HSTS.', {
        examples: ['31536000'],
      }),
    ),
    hstsIncludeSubDomains: param('boolean', javaBoolean(false, 'Add includeSubDomains.')),
    hstsPreload: param('boolean', javaBoolean(false, 'Add preload.')),
    antiClickJackingEnabled: param('boolean', javaBoolean(true, 'Send X-Frame-Options (replacing any).')),
    antiClickJackingOption: param('option', frameOption),
    antiClickJackingUri: param('uri', frameUri),
    blockContentTypeSniffingEnabled: param('boolean', javaBoolean(true, 'Send X-Content-Type-Options: nosniff.')),
    xssProtectionEnabled: param(
      'boolean',
      javaBoolean(
        false,
        'Send X-XSS-Protection: 1; mode=block. Deprecated; gone in Tomcat 11, where setting it stops the application.',
      ),
      {
        removedIn: '11.0',
        versionNotes: ['default changed from true to false in 9.0.76 and 10.1.10', 'removed in 11.0'],
      },
    ),
  },
  toConfig: (v, _raw, ctx) => {
    const uri = v.antiClickJackingUri;
    // Tomcat checks this in init whether or not anti-click-jacking is enabled.
    if (v.antiClickJackingOption === 'ALLOW-FROM' && uri === null) {
      refuse(ctx, 'ALLOW-FROM needs antiClickJackingUri: init throws ("Null value for anti click jacking URI")', {}, [
        'antiClickJackingOption',
      ]);
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
      antiClickJackingHeaderValue:
        v.antiClickJackingOption === 'ALLOW-FROM' ? `ALLOW-FROM ${uri ?? ''}` : v.antiClickJackingOption,
      blockContentTypeSniffingEnabled: v.blockContentTypeSniffingEnabled,
      xssProtectionEnabled: v.xssProtectionEnabled,
    };
  },
  notes: (raw, _opts, values): ParamNote[] => {
    const v = raw['antiClickJackingUri'] === undefined ? null : values();
    return v && v.antiClickJackingUri !== null && v.antiClickJackingOption !== 'ALLOW-FROM'
      ? [
          {
            param: 'antiClickJackingUri',
            ruleId: 'filter-param-no-effect',
            severity: 'warning',
            message: `antiClickJackingUri is used only with antiClickJackingOption ALLOW-FROM (here ${v.antiClickJackingOption})`,
          },
        ]
      : [];
  },
});
export type HttpHeaderSecurityConfig = z.output<typeof spec.schema>;
