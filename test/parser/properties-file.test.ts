import { afterAll, describe, expect, it } from 'vitest';
import { loadBase, parsePropertiesFile, propertyOf } from '../../src/parser/index.js';
import { cleanup, tree } from '../lint/helpers.js';

afterAll(cleanup);

describe('parsePropertiesFile', () => {
  it('reads keys and values as java.util.Properties does: separators, continuations, escapes, comments', () => {
    const text = '# comment\n! also\na=1\n  b : two \\\n    parts\nc\\ d\\=e = \\u0041\\t\nempty\nkey\tvalue\n';
    const { properties } = parsePropertiesFile(text, '/x/p.properties');
    expect(properties.entries.map((e) => [e.key.value, e.value.value])).toEqual([
      ['a', '1'],
      ['b', 'two parts'],
      ['c d=e', 'A\t'],
      ['empty', ''],
      ['key', 'value'],
    ]);
  });

  it('keeps where each key and value was written, across continuation lines', () => {
    const text = 'x=1\n  long.key = first,\\\n    second\n';
    const { properties } = parsePropertiesFile(text, '/x/p.properties');
    const e = propertyOf(properties, 'long.key')!;
    expect([e.key.span.line, e.key.span.column, e.key.span.endColumn]).toEqual([2, 3, 11]);
    expect([e.value.span.line, e.value.span.column, e.value.span.endLine]).toEqual([2, 14, 3]);
    expect(text.slice(e.value.span.offset, e.value.span.endOffset)).toBe('first,\\\n    second');
  });

  it('answers the last entry of a repeated key, as Java keeps it', () => {
    const { properties } = parsePropertiesFile('k=1\nk=2\r\nk=3', '/x/p.properties');
    expect(propertyOf(properties, 'k')!.value.value).toBe('3');
    expect(propertyOf(properties, 'k')!.span.line).toBe(3);
  });
});

describe('loadBase reads the files around the descriptors', () => {
  it("reads conf/context.xml, a host's context.xml.default, conf/logging.properties and catalina.properties with positions", () => {
    const dir = tree({
      'conf/server.xml':
        '<Server port="-1"><Service name="S"><Engine name="Catalina" defaultHost="localhost"><Host name="localhost" appBase="webapps"><Realm className="org.apache.catalina.realm.LockOutRealm"/></Host></Engine></Service></Server>',
      'conf/context.xml': '<Context useHttpOnly="${cookies.httponly}"><Resources allowLinking="false"/></Context>',
      'conf/Catalina/localhost/context.xml.default': '<Context reloadable="true"/>',
      'conf/catalina.properties': 'cookies.httponly=false\n',
      'conf/logging.properties': 'handlers = java.util.logging.ConsoleHandler\n',
    });
    const base = loadBase({ base: dir });
    expect(base.contextXml?.attributes['useHttpOnly']?.value).toBe('false');
    expect(base.contextXml?.children?.map((c) => c.tag)).toEqual(['Resources']);
    expect(base.hosts[0]!.contextDefault?.attributes['reloadable']?.value).toBe('true');
    expect(base.hosts[0]!.def?.realms?.map((r) => r.className?.value)).toEqual([
      'org.apache.catalina.realm.LockOutRealm',
    ]);
    expect(propertyOf(base.catalinaProperties!, 'cookies.httponly')?.value.span.column).toBe(18);
    expect(propertyOf(base.loggingProperties!, 'handlers')?.value.value).toBe('java.util.logging.ConsoleHandler');
    expect([...base.files.keys()].filter((f) => f.endsWith('.properties')).length).toBe(2);
  });
});
