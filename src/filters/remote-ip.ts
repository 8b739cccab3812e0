import type * as z from 'zod';
import { javaBoolean, javaInt, javaRegex, optionalText, text } from './values.js';
import { defineFilter, param } from './define.js';
import type { ParamNote } from './spec.js';

/** Tomcat 9.0/10.1's default internalProxies (private, loopback, link-local and CGNAT ranges, IPv4 and IPv6). */
export const DEFAULT_INTERNAL_PROXIES =
  '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|192\\.168\\.\\d{1,3}\\.\\d{1,3}|169\\.254\\.\\d{1,3}\\.\\d{1,3}|' +
  '127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|100\\.6[4-9]{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.[7-9]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|' +
  '100\\.1[0-1]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.12[0-7]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.1[6-9]{1}\\.\\d{1,3}\\.\\d{1,3}|' +
  '172\\.2[0-9]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.3[0-1]{1}\\.\\d{1,3}\\.\\d{1,3}|0:0:0:0:0:0:0:1|::1|' +
  'fe[89ab]\\p{XDigit}:.*|f[cd]\\p{XDigit}{2}+:.*';

const CIDR_LIST = /^\s*[0-9A-Fa-f:.]+\/\d+(\s*,\s*[0-9A-Fa-f:.]+(\/\d+)?)*\s*$/;

/** Tomcat 11 reads internalProxies/trustedProxies with a "/" after the first char as CIDR masks; 9.0 and 10.1 as a regex. */
function proxyListNotes(raw: Readonly<Record<string, unknown>>, target: string): ParamNote[] {
  const out: ParamNote[] = [];
  for (const name of ['internalProxies', 'trustedProxies']) {
    const v = raw[name];
    if (typeof v !== 'string' || v.indexOf('/') <= 0) continue;
    if (target === '11.0') {
      out.push({
        param: name,
        ruleId: 'filter-param-not-in-target',
        severity: 'warning',
        message: `Tomcat 11 reads a ${name} value containing "/" as a comma-separated list of CIDR masks, not as a regex: check that "${v}" means the same there`,
      });
    } else if (CIDR_LIST.test(v)) {
      out.push({
        param: name,
        ruleId: 'filter-param-no-effect',
        severity: 'error',
        message: `"${v}" looks like CIDR masks, but Tomcat ${target} reads ${name} as a Java regex, which matches no address. Write a regex (CIDR masks need Tomcat 11)`,
      });
    }
  }
  return out;
}

export const spec = defineFilter({
  id: 'remote-ip',
  simpleName: 'RemoteIpFilter',
  description:
    'Takes the client address, scheme, port and secure flag from proxy headers (X-Forwarded-*), for requests that come through trusted proxies.',
  configProblemsAreFatal: true,
  unknownParams: 'ignored',
  names: 'exact',
  params: {
    remoteIpHeader: param(
      'string',
      text('X-Forwarded-For', 'Header holding the list of addresses the request traversed, client first.', [
        'X-Forwarded-For',
        'X-Real-IP',
      ]),
    ),
    internalProxies: param(
      'regex',
      javaRegex(
        'Java regex of internal proxy addresses (whole-string match): trusted, and not reported in the proxies header. Empty: no internal proxies.',
        {
          defaultJava: DEFAULT_INTERNAL_PROXIES,
          examples: ['10\\.0\\.0\\.\\d{1,3}|0:0:0:0:0:0:0:1'],
        },
      ),
      {
        seenAs: ['allowedInternalProxies'],
        versionNotes: ['11.0: a value with "/" after the first character is a list of CIDR masks'],
      },
    ),
    proxiesHeader: param(
      'string',
      text('X-Forwarded-By', 'Header set on the request to list the trusted proxies found in remoteIpHeader.'),
      { seenAs: ['remoteIpProxiesHeader'] },
    ),
    trustedProxies: param(
      'regex',
      javaRegex(
        'Java regex of trusted proxy addresses (whole-string match): trusted, and reported in the proxies header.',
      ),
      {
        versionNotes: ['11.0: a value with "/" after the first character is a list of CIDR masks'],
      },
    ),
    protocolHeader: param(
      'string',
      text(
        'X-Forwarded-Proto',
        'Header holding the protocol the client used; empty to leave scheme, secure and port alone.',
      ),
    ),
    protocolHeaderHttpsValue: param(
      'string',
      text('https', 'Value of protocolHeader that means HTTPS (compared case-insensitively).'),
    ),
    portHeader: param('string', optionalText('Header holding the port the client used (e.g. X-Forwarded-Port).')),
    hostHeader: param('string', optionalText('Header holding the host name the client used (e.g. X-Forwarded-Host).')),
    httpServerPort: param(
      'integer',
      javaInt(80, 'Server port reported when protocolHeader says http and there is no portHeader.'),
    ),
    httpsServerPort: param(
      'integer',
      javaInt(443, 'Server port reported when protocolHeader says https and there is no portHeader.'),
    ),
    changeLocalPort: param(
      'boolean',
      javaBoolean(false, 'Also change the local port (getLocalPort) to the forwarded port.'),
    ),
    changeLocalName: param(
      'boolean',
      javaBoolean(false, 'Also change the local name (getLocalName) to the forwarded host.'),
    ),
    requestAttributesEnabled: param(
      'boolean',
      javaBoolean(
        true,
        'Documented, but RemoteIpFilter never reads this init-param (only RemoteIpValve has it): the AccessLog request attributes are always set.',
      ),
      {
        ignoredByTomcat:
          'RemoteIpFilter never reads requestAttributesEnabled from its init-params (only RemoteIpValve has that attribute): the AccessLog request attributes are always set',
      },
    ),
    enableLookups: param(
      'boolean',
      javaBoolean(false, 'Resolve the remote host name from the forwarded address with DNS.'),
    ),
  },
  toConfig: (v) => ({
    remoteIpHeader: v.remoteIpHeader.toLowerCase(),
    internalProxies: v.internalProxies,
    proxiesHeader: v.proxiesHeader,
    trustedProxies: v.trustedProxies,
    // getHeader("") is null, so an empty protocolHeader leaves scheme, secure and port alone, like an unset one.
    protocolHeader: v.protocolHeader === '' ? null : v.protocolHeader.toLowerCase(),
    protocolHeaderHttpsValue: v.protocolHeaderHttpsValue,
    portHeader: v.portHeader ? v.portHeader.toLowerCase() : null,
    hostHeader: v.hostHeader ? v.hostHeader.toLowerCase() : null,
    httpServerPort: v.httpServerPort,
    httpsServerPort: v.httpsServerPort,
    changeLocalPort: v.changeLocalPort,
    changeLocalName: v.changeLocalName,
    /** Always true: the init-param is not read (see the parameter's doc). */
    requestAttributesEnabled: true as boolean,
    enableLookups: v.enableLookups,
  }),
  notes: (raw, opts) => proxyListNotes(raw, opts.target),
});
export type RemoteIpConfig = z.output<typeof spec.schema>;
