import { describe, expect, it } from 'vitest';
import { getLanguageService, type JSONSchema } from 'vscode-json-languageservice';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { generateSchemas } from '../../src/schema/generate.js';

const schemas = generateSchemas();
const chainSchema = schemas.get('tollgate.chain.schema.json')! as JSONSchema;

function service() {
  const ls = getLanguageService({});
  ls.configure({
    validate: true,
    schemas: [{ uri: 'tollgate://tollgate.chain.schema.json', fileMatch: ['*.chain.json'], schema: chainSchema }],
  });
  return ls;
}

function open(text: string) {
  const doc = TextDocument.create('file:///project/tollgate.chain.json', 'json', 1, text);
  const ls = service();
  return { ls, doc, json: ls.parseJSONDocument(doc) };
}

const CURSOR = '|';

async function complete(textWithCursor: string): Promise<string[]> {
  const at = textWithCursor.indexOf(CURSOR);
  const { ls, doc, json } = open(textWithCursor.replace(CURSOR, ''));
  const list = await ls.doComplete(doc, doc.positionAt(at), json);
  return (list?.items ?? []).map((i) => i.label);
}

describe('editing tollgate.chain.json with the generated schemas (vscode-json-languageservice)', () => {
  it('reports invalid parameter values at their place', async () => {
    const text = JSON.stringify(
      {
        version: 1,
        contexts: [
          {
            path: '/api',
            filters: [
              {
                name: 'h',
                class: 'org.apache.catalina.filters.HttpHeaderSecurityFilter',
                params: { hstsMaxAgeSeconds: 'a year', hstsMaxAgeSecond: 1, hstsEnabled: [true] },
              },
            ],
          },
        ],
      },
      null,
      2,
    );
    const { ls, doc, json } = open(text);
    const diagnostics = await ls.doValidation(doc, json);
    const at = (needle: string) =>
      diagnostics.some((d) => text.slice(doc.offsetAt(d.range.start), doc.offsetAt(d.range.end)).includes(needle));
    expect(at('"a year"')).toBe(true);
    expect(at('hstsMaxAgeSecond"')).toBe(true);
    expect(at('[')).toBe(true);
  });

  it('accepts a valid document', async () => {
    const text = JSON.stringify({
      version: 1,
      contexts: [
        {
          path: '/api',
          filters: [
            {
              name: 'c',
              class: 'org.apache.catalina.filters.CorsFilter',
              params: {
                'cors.allowed.origins': ['https://a.example'],
                'cors.support.credentials': true,
                'cors.preflight.maxage': 600,
              },
            },
          ],
          mappings: [{ filter: 'c', urlPatterns: ['/*'], dispatchers: ['REQUEST'] }],
        },
      ],
    });
    const { ls, doc, json } = open(text);
    expect(await ls.doValidation(doc, json)).toEqual([]);
  });

  it('completes parameter names of the filter class', async () => {
    const labels = await complete(
      '{ "version": 1, "contexts": [ { "path": "/", "filters": [ { "name": "c", "class": "org.apache.catalina.filters.CorsFilter", "params": { | } } ] } ] }',
    );
    expect(labels).toEqual(
      expect.arrayContaining(['cors.allowed.origins', 'cors.support.credentials', 'cors.preflight.maxage']),
    );
    expect(labels).not.toContain('hstsMaxAgeSeconds');
  });

  it('completes enum values (filter classes, dispatchers, X-Frame-Options)', async () => {
    expect(
      await complete(
        '{ "version": 1, "contexts": [ { "path": "/", "mappings": [ { "filter": "c", "dispatchers": [ | ] } ] } ] }',
      ),
    ).toEqual(expect.arrayContaining(['"REQUEST"', '"ERROR"', '"ASYNC"']));
    expect(
      await complete('{ "version": 1, "contexts": [ { "path": "/", "filters": [ { "name": "c", "class": | } ] } ] }'),
    ).toEqual(
      expect.arrayContaining([
        '"org.apache.catalina.filters.CorsFilter"',
        '"org.apache.catalina.filters.RemoteIpFilter"',
      ]),
    );
    expect(
      await complete(
        '{ "version": 1, "contexts": [ { "path": "/", "filters": [ { "name": "h", "class": "org.apache.catalina.filters.HttpHeaderSecurityFilter", "params": { "antiClickJackingOption": | } } ] } ] }',
      ),
    ).toEqual(expect.arrayContaining(['"DENY"', '"SAMEORIGIN"', '"ALLOW-FROM"']));
  });
});
