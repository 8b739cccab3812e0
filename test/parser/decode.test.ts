import { describe, expect, it } from 'vitest';
import { decodeXml, encodeSource, parseWebXml } from '../../src/parser/index.js';

const declared = (encoding: string, ...body: (string | number[])[]): Buffer =>
  Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="${encoding}"?>\n`),
    ...body.map((b) => (typeof b === 'string' ? Buffer.from(b, 'latin1') : Buffer.from(b))),
  ]);

describe('decoding the bytes of a descriptor as a Java XML parser does', () => {
  it('reads windows-1252 quotes and the euro sign (Node 20 alone would give C1 controls)', () => {
    const bytes = declared(
      'windows-1252',
      '<web-app><display-name>',
      [0x93, 0x80, 0x20, 0x35, 0x94],
      '</display-name></web-app>',
    );
    const { source, diagnostics } = decodeXml(bytes, 'w.xml');
    expect(diagnostics).toEqual([]);
    expect(source.encoding).toBe('windows-1252');
    expect(source.text).toContain('<display-name>\u201c\u20ac 5\u201d</display-name>');
  });

  it('takes Java names for Latin-1 as true ISO-8859-1, not windows-1252', () => {
    for (const name of ['ISO-8859-1', 'ISO8859_1', 'latin1', 'l1', 'ISO_8859-1']) {
      const { source } = decodeXml(declared(name, '<a>', [0x80, 0xe9], '</a>'), 'w.xml');
      expect(source.encoding, name).toBe('iso-8859-1');
      expect(source.text, name).toContain('<a>\u0080\u00e9</a>');
    }
    expect(decodeXml(declared('Cp1252', '<a/>'), 'w').source.encoding).toBe('windows-1252');
    expect(decodeXml(declared('UTF8', '<a/>'), 'w').source.encoding).toBe('utf-8');
  });

  it('reads every form of the declaration alike, the plain UTF-8 one read from the bytes included', () => {
    // Latin-1 bytes E9: "é" where the file is read as Latin-1; U+FFFD and a diagnostic where it is read as UTF-8.
    const cases: [string, string][] = [
      ['<?xml version="1.0" encoding="UTF-8"?>', 'utf-8'],
      ["<?xml version='1.0' encoding='utf-8'?>", 'utf-8'],
      ['<?xml version="1.0"\n\tencoding="Utf-8" standalone="yes"?>', 'utf-8'],
      ['<?xml version="1.0" encoding = "ISO-8859-1"?>', 'iso-8859-1'],
      ['<?xml version="1.0" encoding="ISO-8859-1"?>', 'iso-8859-1'],
      ['<?xml version="1.0" encoding="UTF-8x"?>', 'utf-8'],
      ['<?xml version="1.0" encoding="UTF-8\'?>', 'utf-8'],
      ['<?xml version="1.0"?><!-- encoding="ISO-8859-1" -->', 'utf-8'],
      [`<?xml version="1.0"${' '.repeat(190)} encoding="ISO-8859-1"?>`, 'utf-8'],
      ['<?xml version="1.0" xencoding="UTF-8" encoding="ISO-8859-1"?>', 'iso-8859-1'],
      ['<?xml version="1.0" encoding="latin1"?>', 'iso-8859-1'],
    ];
    for (const [decl, encoding] of cases) {
      const { source } = decodeXml(
        Buffer.concat([Buffer.from(decl, 'latin1'), Buffer.from('<a>'), Buffer.from([0xe9]), Buffer.from('</a>')]),
        'd.xml',
      );
      expect(source.encoding, decl).toBe(encoding);
      expect(source.text.endsWith(encoding === 'utf-8' ? '<a>\ufffd</a>' : '<a>\u00e9</a>'), decl).toBe(true);
    }
  });

  it('reads ISO-8859-15, whose 0xA4 is the euro sign', () => {
    const { source } = decodeXml(declared('ISO-8859-15', '<a>', [0xa4], '</a>'), 'w');
    expect(source.encoding).toBe('iso-8859-15');
    expect(source.text).toContain('<a>\u20ac</a>');
  });

  it('reads UTF-16 big and little endian, with or without a byte order mark', () => {
    const xml = '<web-app version="4.0"><display-name>\u00e9\u{1f600}</display-name></web-app>';
    const be = Buffer.from(xml, 'utf16le').swap16();
    const cases: [Buffer, string, boolean][] = [
      [Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'utf-16be', true],
      [be, 'utf-16be', false],
      [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]), 'utf-16le', true],
      [Buffer.from(xml, 'utf16le'), 'utf-16le', false],
    ];
    for (const [bytes, encoding, bom] of cases) {
      const { source, diagnostics } = decodeXml(bytes, 'w');
      expect(diagnostics).toEqual([]);
      expect(source).toMatchObject({ encoding, bom, text: xml });
    }
  });

  it('reports a UTF-16 declaration in a file written one byte per character, and reads it as UTF-8', () => {
    const { source, diagnostics } = decodeXml(Buffer.from('<?xml version="1.0" encoding="UTF-16"?><a>\u00e9</a>'), 'w');
    expect(diagnostics.map((d) => d.ruleId)).toEqual(['xml-encoding']);
    expect(source.encoding).toBe('utf-8');
    expect(source.text).toContain('<a>\u00e9</a>');
  });

  it('reports a byte above 0x7F in a US-ASCII file', () => {
    const { diagnostics } = decodeXml(declared('US-ASCII', '<a>', [0xe9], '</a>'), 'w');
    expect(diagnostics.map((d) => d.ruleId)).toEqual(['xml-encoding']);
  });

  it('reports invalid UTF-8 and keeps reading with replacement characters', () => {
    const r = parseWebXml(
      Buffer.concat([
        Buffer.from('<web-app><display-name>'),
        Buffer.from([0xe9]),
        Buffer.from('</display-name></web-app>'),
      ]),
      'w',
    );
    expect(r.diagnostics.map((d) => d.ruleId)).toEqual(['xml-encoding']);
    expect(r.source.text).toContain('\ufffd');
    expect(r.webXml).not.toBeNull();
  });

  it('places an unknown encoding at its name in the declaration', () => {
    const text = '<?xml version="1.0"\n      encoding="x-klingon"?>\n<web-app/>';
    const d = decodeXml(Buffer.from(text), 'w').diagnostics[0]!;
    expect(d.ruleId).toBe('xml-encoding');
    expect(d.span).toMatchObject({ line: 2, column: 17, endLine: 2, endColumn: 26 });
    expect(text.slice(d.span.offset, d.span.endOffset)).toBe('x-klingon');
  });
});

describe('encoding text back to the bytes of its file', () => {
  const roundTrips: [string, Buffer][] = [
    ['windows-1252', declared('windows-1252', '<a>', [0x93, 0x80, 0xe9, 0x94], '</a>')],
    ['iso-8859-1', declared('ISO-8859-1', '<a>', [0x80, 0xe9, 0xff], '</a>')],
    ['iso-8859-15', declared('ISO-8859-15', '<a>', [0xa4, 0xbd], '</a>')],
    ['windows-1250', declared('windows-1250', '<a>', [0x8a, 0xe8], '</a>')],
    ['utf-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<a>\u00e9\u{1f600}</a>')])],
    ['utf-16be with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('<a>\u00e9</a>', 'utf16le').swap16()])],
  ];
  for (const [label, bytes] of roundTrips) {
    it(`gives back the original bytes of a ${label} file`, () => {
      const { source } = decodeXml(bytes, 'w');
      expect(Buffer.from(encodeSource(source, source.text)).equals(bytes)).toBe(true);
    });
  }

  it('writes one byte per character in single-byte encodings, so byte offsets of a prefix are right', () => {
    const { source } = decodeXml(declared('windows-1252', '<a>', [0x80, 0x80], '</a>'), 'w');
    const prefix = source.text.slice(0, source.text.indexOf('</a>'));
    expect(encodeSource({ ...source, bom: false }, prefix).length).toBe(prefix.length);
  });

  it('writes "?" for a character the encoding cannot hold', () => {
    const { source } = decodeXml(declared('ISO-8859-1', '<a/>'), 'w');
    expect(Buffer.from(encodeSource(source, '\u20ac')).toString('latin1')).toBe('?');
  });
});
