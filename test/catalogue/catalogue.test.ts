import { describe, expect, it } from 'vitest';
import { catalogue, catalogueDiff } from '../../src/catalogue/index.js';

const HOST = 'org.apache.catalina.core.StandardHost';
const CONTEXT = 'org.apache.catalina.core.StandardContext';

describe('catalogue', () => {
  it('knows which version each catalogue was read from', () => {
    expect(catalogue('9.0').tomcatVersion).toBe('9.0.70.0');
    expect(catalogue('10.1').tomcatVersion).toMatch(/^10\.1\.\d+\.0$/);
    expect(catalogue('11.0').tomcatVersion).toBe('11.0');
  });

  it('maps protocol names and classes to handlers per version', () => {
    const apr = 'org.apache.coyote.http11.Http11AprProtocol';
    expect(catalogue('9.0').protocolHandler(apr)).toBe(apr);
    expect(catalogue('10.1').protocolHandler(apr)).toBeNull();
    expect(catalogue('10.1').protocolHandler(undefined)).toBe('org.apache.coyote.http11.Http11NioProtocol');
    expect(catalogue('10.1').protocolHandler('AJP/1.3')).toBe('org.apache.coyote.ajp.AjpNioProtocol');
  });

  it('sets connector attributes as IntrospectionUtils does: connector, protocol handler, endpoint, socket.*', () => {
    const c9 = catalogue('9.0');
    const c10 = catalogue('10.1');
    const nio = 'org.apache.coyote.http11.Http11NioProtocol';
    expect(c10.connectorAttribute(nio, 'port', '8080')).toEqual({ kind: 'set', type: 'int' });
    expect(c10.connectorAttribute(nio, 'port', ' 8080')).toEqual({ kind: 'bad-value', type: 'int' });
    expect(c10.connectorAttribute(nio, 'maxThreads', '200').kind).toBe('generic');
    expect(c10.connectorAttribute(nio, 'socket.soTimeout', '1000').kind).toBe('generic');
    expect(c10.connectorAttribute(nio, 'socket.noSuch', '1').kind).toBe('unknown');
    // The Tomcat 8.5/9 TLS attributes: 9.0's protocol takes them, 10.1 has no setter for them.
    expect(c9.connectorAttribute(nio, 'keystoreFile', 'x').kind).toBe('generic');
    expect(c10.connectorAttribute(nio, 'keystoreFile', 'x').kind).toBe('unknown');
    expect(c10.connectorAttribute(null, 'maxThreads', '1').kind).toBe('unknown');
    expect(catalogue('11.0').connectorAttribute(nio, 'rejectIllegalHeader', 'true').kind).toBe('unknown');
  });

  it('answers for Tomcat 7 attributes and the digester skips', () => {
    const c10 = catalogue('10.1');
    expect(c10.setProperty(HOST, 'xmlValidation', 'false').kind).toBe('unknown');
    expect(c10.setProperty(CONTEXT, 'cachingAllowed', 'true').kind).toBe('unknown');
    expect(c10.setProperty(CONTEXT, 'reloadable', 'yes')).toEqual({ kind: 'set', type: 'boolean' });
    expect(c10.setProperty(CONTEXT, 'className', 'x').kind).toBe('skipped');
    expect(c10.setProperty(CONTEXT, 'source', 'x').kind).toBe('skipped');
    expect(c10.setProperty('org.example.Mine', 'a', 'b').kind).toBe('unknown-class');
    expect(c10.setProperty('org.apache.tomcat.util.descriptor.web.ContextResource', 'maxTotal', '8').kind).toBe(
      'generic',
    );
    expect(c10.setProperty('org.apache.catalina.valves.ErrorReportValve', 'errorCode.404', '/x').kind).toBe('generic');
    expect(c10.setProperty('org.apache.catalina.valves.ErrorReportValve', 'errorCode.x', '/x').kind).toBe('unknown');
  });

  it('diffs versions: what 10.1 removed from 9.0', () => {
    const d = catalogueDiff('9.0', '10.1');
    expect(d.removedClasses).toContainEqual({
      type: 'org.apache.coyote.ProtocolHandler',
      className: 'org.apache.coyote.http11.Http11AprProtocol',
    });
    expect(d.removedClasses).toContainEqual({
      type: 'org.apache.catalina.Realm',
      className: 'org.apache.catalina.realm.JDBCRealm',
    });
    expect(d.removedAttributes).toContainEqual({
      className: 'org.apache.coyote.http11.Http11NioProtocol',
      attribute: 'KeystoreFile',
    });
    expect(catalogueDiff('10.1', '11.0').removedAttributes).toContainEqual({
      className: 'org.apache.coyote.ajp.AjpNioProtocol',
      attribute: 'RequiredSecret',
    });
  });
});
