/**
 * What Tomcat's stock conf/web.xml contributes to every application: the
 * "default" servlet on "/", the "jsp" servlet on *.jsp and *.jspx, and the
 * welcome files. tollgate assumes it when no conf/web.xml was found at all
 * (a lone web.xml being checked): every CATALINA_HOME ships one.
 */
import { fileStartSpan, type Located, type ServletDef, type WebXml } from '../model/index.js';

export const STOCK_WEB_XML_FILE = "(Tomcat's stock conf/web.xml)";

const span = fileStartSpan(STOCK_WEB_XML_FILE);
const at = <T>(value: T): Located<T> => ({ value, span });

function servlet(name: string, className: string): ServletDef {
  return { name: at(name), className: at(className), jspFile: null, initParams: [], span };
}

/** A WebXml with the servlets, servlet mappings and welcome files of Tomcat 10.1's stock conf/web.xml. */
export const STOCK_WEB_XML: WebXml = {
  file: STOCK_WEB_XML_FILE,
  root: 'web-app',
  generation: '6.0',
  namespace: 'https://jakarta.ee/xml/ns/jakartaee',
  version: at('6.0'),
  metadataComplete: null,
  span,
  filters: [],
  filterMappings: [],
  servlets: [
    servlet('default', 'org.apache.catalina.servlets.DefaultServlet'),
    servlet('jsp', 'org.apache.jasper.servlet.JspServlet'),
  ],
  servletMappings: [
    { servletName: at('default'), urlPatterns: [at('/')], span },
    { servletName: at('jsp'), urlPatterns: [at('*.jsp'), at('*.jspx')], span },
  ],
  mimeMappings: [],
  welcomeFiles: [at('index.html'), at('index.htm'), at('index.jsp')],
  sessionTimeout: at('30'),
  contextParams: [],
  realmName: null,
  requestCharacterEncoding: null,
  doctype: null,
};
