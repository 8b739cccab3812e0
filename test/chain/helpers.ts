/** Small builders for descriptors in chain tests: XML text through the real parser. */
import type { WebXml } from '../../src/model/index.js';
import { parseWebXml } from '../../src/parser/index.js';

export function webXml(
  body: string,
  file = '/base/webapps/app/WEB-INF/web.xml',
  header = '<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">',
): WebXml {
  const text = `<?xml version="1.0" encoding="UTF-8"?>\n${header}\n${body}\n</web-app>\n`;
  const parsed = parseWebXml(text, file).webXml;
  if (!parsed) throw new Error(`test descriptor did not parse: ${text}`);
  return parsed;
}

export const globalXml = (body: string): WebXml => webXml(body, '/base/conf/web.xml');
export const hostXml = (body: string): WebXml => webXml(body, '/base/conf/Catalina/localhost/web.xml.default');
export const appXml = (body: string): WebXml => webXml(body);

export function filter(
  name: string,
  params: Record<string, string> = {},
  className: string | null = 'org.example.F',
): string {
  const ps = Object.entries(params)
    .map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('');
  return `<filter><filter-name>${name}</filter-name>${className ? `<filter-class>${className}</filter-class>` : ''}${ps}</filter>\n`;
}

export function mapping(
  name: string,
  opts: { urls?: string[]; servlets?: string[]; dispatchers?: string[] } = { urls: ['/*'] },
): string {
  const parts = [
    ...(opts.urls ?? []).map((u) => `<url-pattern>${u}</url-pattern>`),
    ...(opts.servlets ?? []).map((s) => `<servlet-name>${s}</servlet-name>`),
    ...(opts.dispatchers ?? []).map((d) => `<dispatcher>${d}</dispatcher>`),
  ];
  return `<filter-mapping><filter-name>${name}</filter-name>${parts.join('')}</filter-mapping>\n`;
}

export function servlet(
  name: string,
  params: Record<string, string> = {},
  className: string | null = 'org.example.S',
): string {
  const ps = Object.entries(params)
    .map(([k, v]) => `<init-param><param-name>${k}</param-name><param-value>${v}</param-value></init-param>`)
    .join('');
  return `<servlet><servlet-name>${name}</servlet-name>${className ? `<servlet-class>${className}</servlet-class>` : ''}${ps}</servlet>\n`;
}

export function servletMapping(name: string, ...patterns: string[]): string {
  return `<servlet-mapping><servlet-name>${name}</servlet-name>${patterns.map((p) => `<url-pattern>${p}</url-pattern>`).join('')}</servlet-mapping>\n`;
}

export const welcome = (...files: string[]): string =>
  `<welcome-file-list>${files.map((f) => `<welcome-file>${f}</welcome-file>`).join('')}</welcome-file-list>\n`;
export const mime = (ext: string, type: string): string =>
  `<mime-mapping><extension>${ext}</extension><mime-type>${type}</mime-type></mime-mapping>\n`;
export const timeout = (t: string): string =>
  `<session-config><session-timeout>${t}</session-timeout></session-config>\n`;

/** A conf/web.xml like the stock one: default and jsp servlets, index.html welcome file. */
export const STANDARD_GLOBAL =
  servlet('default', {}, 'org.apache.catalina.servlets.DefaultServlet') +
  servlet('jsp', {}, 'org.apache.jasper.servlet.JspServlet') +
  servletMapping('default', '/') +
  servletMapping('jsp', '*.jsp', '*.jspx') +
  welcome('index.html');
