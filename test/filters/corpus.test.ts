import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateFilterDef } from '../../src/filters/index.js';
import { parseWebXml } from '../../src/parser/index.js';
import { sharedPath } from '../shared-dir.js';

describe('real configurations from the corpus', () => {
  const read = (name: string) => {
    const text = readFileSync(sharedPath('corpus', 'real-world', name, 'web.xml'), 'utf8');
    return { text, webXml: parseWebXml(text, name).webXml! };
  };

  it('kiss-web-unsafe: CORS with origins "*", methods and exposed headers read as Tomcat reads them', () => {
    const { webXml } = read('kiss-web-unsafe');
    const v = validateFilterDef(webXml.filters.find((f) => f.className?.value.endsWith('CorsFilter'))!);
    expect(v.diagnostics).toEqual([]);
    expect(v.config).toMatchObject({
      anyOrigin: true,
      allowedMethods: ['GET', 'POST', 'HEAD', 'OPTIONS', 'PUT'],
      supportsCredentials: false,
    });
    expect((v.config as { allowedHeaders: string[] }).allowedHeaders).toContain('accept-encoding');
  });

  it('kiss-web-secure: RemoteIpFilter with protocolHeader', () => {
    const { webXml } = read('kiss-web-secure');
    const v = validateFilterDef(webXml.filters.find((f) => f.className?.value.endsWith('RemoteIpFilter'))!);
    expect(v.diagnostics).toEqual([]);
    expect(v.config).toMatchObject({ protocolHeader: 'x-forwarded-proto' });
  });

  it("Tomcat 10.1's own manager: CSRF and header security filters are clean", () => {
    const { webXml } = read('tomcat-10.1.x-manager');
    for (const f of webXml.filters) {
      const v = validateFilterDef(f);
      expect(v.spec, f.name.value).not.toBeNull();
      expect(v.diagnostics, f.name.value).toEqual([]);
    }
  });

  it('every filter of the corpus validates without an error', () => {
    for (const name of [
      'aodn-geoserver-build',
      'hazendaz-tomcat10-web',
      'hdensity-tomcat-hardened-9.0-web',
      'mosal2000-tomcat-ssl-manager',
      'tomcat-9.0.x-examples',
      'wso2-carbon-4.9.x-web',
    ]) {
      for (const f of read(name).webXml.filters) {
        expect(
          validateFilterDef(f).diagnostics.filter((d) => d.severity === 'error'),
          `${name} ${f.name.value}`,
        ).toEqual([]);
      }
    }
  });
});
