import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServerXml, parseWebXml } from '../../src/parser/index.js';
import { sharedPath } from '../shared-dir.js';

/** Every file of the real-world corpus (../shared/corpus/real-world, read-only) through the parser. */
const root = sharedPath('corpus', 'real-world');
const files = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(root, d.name))
      .filter((f) => f.endsWith('.xml'))
      .map((f) => join(d.name, f)),
  );
const props = { 'catalina.base': '/srv/tomcat', 'catalina.home': '/usr/share/tomcat10' };

describe('real-world corpus through the parser', () => {
  it('has files to read', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  for (const file of files) {
    it(`reads ${file}`, () => {
      const bytes = readFileSync(join(root, file));
      const isServer = file.endsWith('server.xml');
      const r = isServer ? parseServerXml(bytes, file, props) : parseWebXml(bytes, file);
      const errors = r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.ruleId);
      if (file.startsWith('meteofi-geoserver-cors-fragment')) {
        // A bare <filter> snippet with several top-level elements: not a descriptor, and said so.
        expect(errors).toContain('xml-wrong-root');
        expect(errors).toContain('xml-malformed');
        return;
      }
      expect(r.diagnostics.map((d) => `${d.span.line}:${d.span.column} ${d.ruleId} ${d.message}`)).toEqual([]);
      if (isServer) expect((r as ReturnType<typeof parseServerXml>).serverXml!.services.length).toBeGreaterThan(0);
      else expect((r as ReturnType<typeof parseWebXml>).webXml!.generation).not.toBe('unknown');
    });
  }
});
