/**
 * web.xml and web-fragment.xml: the J2EE/Java EE schema namespaces and versions to Jakarta EE 10's
 * (Servlet 6.0, what Tomcat 10.1 implements). Descriptors without a namespace (the 2.2/2.3 DTDs) are
 * left as they are: Tomcat 10.1 reads them, and a schema would change how they are validated.
 */
import type { XmlElement } from '../parser/index.js';
import {
  JAKARTAEE_NAMESPACE,
  OLD_WEB_NAMESPACES,
  WEB_APP_SCHEMA,
  WEB_APP_VERSION,
  WEB_FRAGMENT_SCHEMA,
} from './changes.js';
import { tagEdits, type Edit } from './edit.js';
import type { Step } from './types.js';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/** Elements whose text names a class the application loads. */
const CLASS_ELEMENTS = new Set(['servlet-class', 'filter-class', 'listener-class']);

export function migrateWebXmlTree(root: XmlElement, text: string): { edits: Edit[]; steps: Step[] } {
  const edits: Edit[] = [];
  const steps: Step[] = [];
  if ((root.name === 'web-app' || root.name === 'web-fragment') && OLD_WEB_NAMESPACES.has(root.namespace)) {
    const set = new Map<string, string>();
    for (const a of root.attributes) {
      if ((a.qname === 'xmlns' || a.qname.startsWith('xmlns:')) && OLD_WEB_NAMESPACES.has(a.value.trim()))
        set.set(a.qname, JAKARTAEE_NAMESPACE);
    }
    const version = root.attributes.find((a) => a.qname === 'version');
    if (version && version.value.trim() !== WEB_APP_VERSION) set.set('version', WEB_APP_VERSION);
    const schema = root.name === 'web-fragment' ? WEB_FRAGMENT_SCHEMA : WEB_APP_SCHEMA;
    const location = root.attributes.find((a) => a.name === 'schemaLocation' && isXsi(root, a.qname));
    if (location) {
      // Each namespace/location pair replaced in place, so the value keeps its line breaks.
      const raw = text.slice(location.valueSpan.offset, location.valueSpan.endOffset);
      const parts = raw.split(/(\s+)/);
      const words = parts.map((p, i) => (i % 2 === 0 && p !== '' ? i : -1)).filter((i) => i >= 0);
      for (let k = 0; k + 1 < words.length; k += 2) {
        if (!OLD_WEB_NAMESPACES.has(parts[words[k]!]!)) continue;
        parts[words[k]!] = JAKARTAEE_NAMESPACE;
        parts[words[k + 1]!] = schema;
      }
      const value = parts.join('');
      if (value !== raw) set.set(location.qname, value);
    }
    edits.push(...tagEdits(root, text, { set }));
    steps.push({
      span: root.span,
      message: `Changed the ${root.namespace} namespace${version ? ` and version ${version.value.trim()}` : ''} to Jakarta EE's (${JAKARTAEE_NAMESPACE}, version ${WEB_APP_VERSION}), the descriptor Tomcat 10.1 implements.`,
      manual: false,
    });
  }
  const visit = (el: XmlElement): void => {
    if (CLASS_ELEMENTS.has(el.name) && /^\s*javax\./.test(el.text)) {
      steps.push({
        span: el.span,
        message: `${el.text.trim()} is a javax.* class: Tomcat 10.1 loads only jakarta.* servlet APIs, so this application needs its Jakarta version (or Apache's tomcat-jakartaee-migration tool on its classes); no configuration change makes it load.`,
        manual: true,
      });
    }
    for (const c of el.children) visit(c);
  };
  visit(root);
  return { edits, steps };
}

/** Whether a prefixed attribute name is in the XML Schema instance namespace (its prefix declared on the root). */
function isXsi(root: XmlElement, qname: string): boolean {
  const colon = qname.indexOf(':');
  if (colon < 0) return false;
  const prefix = qname.slice(0, colon);
  return root.attributes.some((a) => a.qname === `xmlns:${prefix}` && a.value.trim() === XSI);
}
