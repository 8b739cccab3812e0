import { javaBoolean, javaRegex, numericText, optionalText, text } from './values.js';
import { defineFilter, param } from './define.js';
import { translateJavaRegex } from './java-regex.js';

/** Tomcat 10.1's default internalProxies. */
export const DEFAULT_INTERNAL_PROXIES =
  '10\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|192\\.168\\.\\d{1,3}\\.\\d{1,3}|169\\.254\\.\\d{1,3}\\.\\d{1,3}|' +
  '127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}|100\\.6[4-9]{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.[7-9]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|' +
  '100\\.1[0-1]{1}\\d{1}\\.\\d{1,3}\\.\\d{1,3}|100\\.12[0-7]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.1[6-9]{1}\\.\\d{1,3}\\.\\d{1,3}|' +
  '172\\.2[0-9]{1}\\.\\d{1,3}\\.\\d{1,3}|172\\.3[0-1]{1}\\.\\d{1,3}\\.\\d{1,3}|0:0:0:0:0:0:0:1|::1|' +
  'fe[89ab]\\p{XDigit}:.*|f[cd]\\p{XDigit}{2}+:.*';

/** Integer.parseInt as RemoteIpFilter's init applies it (checked in toConfig): a bad number stops the filter. */
function port(description: string, def: number) {
  return numericText(String(def), description);
}

export const spec = defineFilter({
  id: 'remote-ip',
  simpleName: 'RemoteIpFilter',
  description: 'Takes the client address, scheme, port and secure flag from proxy headers (X-Forwarded-*), for requests from trusted proxies.',
  configProblemsAreFatal: true,
  unknownParams: 'ignored',
  params: {
    remoteIpHeader: param('string', text('X-Forwarded-For', 'Header holding the list of addresses the request traversed, client first.')),
    internalProxies: param('regex', javaRegex('Java regex of internal proxy addresses: trusted, and not reported in the proxies header.'), { default: DEFAULT_INTERNAL_PROXIES }),
    proxiesHeader: param('string', text('X-Forwarded-By', 'Header created to hold the trusted proxies found in remoteIpHeader.')),
    trustedProxies: param('regex', javaRegex('Java regex of trusted proxy addresses: trusted, and reported in the proxies header.')),
    protocolHeader: param('string', text('X-Forwarded-Proto', 'Header holding the protocol the client used; empty to ignore it.')),
    protocolHeaderHttpsValue: param('string', text('https', 'Value of protocolHeader that means HTTPS (case-insensitive).')),
    portHeader: param('string', optionalText('Header holding the port the client used.')),
    hostHeader: param('string', optionalText('Header holding the host name the client used.')),
    httpServerPort: param('integer', port('Server port reported when protocolHeader says http and there is no portHeader.', 80)),
    httpsServerPort: param('integer', port('Server port reported when protocolHeader says https and there is no portHeader.', 443)),
    changeLocalPort: param('boolean', javaBoolean(false, 'Also change the local port to the forwarded port.')),
    changeLocalName: param('boolean', javaBoolean(false, 'Also change the local name to the forwarded host.')),
    requestAttributesEnabled: param('boolean', javaBoolean(true, 'Publish the AccessLog request attributes (remote address, host, protocol, server port).')),
    enableLookups: param('boolean', javaBoolean(false, 'Resolve the remote host name from the forwarded address (DNS).')),
  },
  toConfig: (v, raw, ctx) => {
    const ports: Record<string, number> = {};
    for (const name of ['httpServerPort', 'httpsServerPort'] as const) {
      const t = v[name].trim();
      if (!/^[+-]?\d+$/.test(t)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `"${v[name]}" is not a whole number: Tomcat refuses to start the filter` });
      }
      ports[name] = Number(t);
    }
    const defaultProxies = translateJavaRegex(DEFAULT_INTERNAL_PROXIES);
    const internalProxies =
      'internalProxies' in raw ? v.internalProxies : { java: DEFAULT_INTERNAL_PROXIES, source: defaultProxies.source, flags: defaultProxies.flags };
    return {
      remoteIpHeader: v.remoteIpHeader.toLowerCase(),
      internalProxies,
      proxiesHeader: v.proxiesHeader,
      trustedProxies: v.trustedProxies,
      protocolHeader: v.protocolHeader === '' ? null : v.protocolHeader.toLowerCase(),
      protocolHeaderHttpsValue: v.protocolHeaderHttpsValue,
      portHeader: v.portHeader ? v.portHeader.toLowerCase() : null,
      hostHeader: v.hostHeader ? v.hostHeader.toLowerCase() : null,
      httpServerPort: ports['httpServerPort']!,
      httpsServerPort: ports['httpsServerPort']!,
      changeLocalPort: v.changeLocalPort,
      changeLocalName: v.changeLocalName,
      requestAttributesEnabled: v.requestAttributesEnabled,
      enableLookups: v.enableLookups,
    };
  },
});
export type RemoteIpConfig = ReturnType<typeof spec.schema.parse>;
