import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chainDocumentSchema,
  convertWebXml,
  jsonSchemas,
  schemaText,
  TollgateInputError,
  writeSchemas,
} from '../../src/api/schema.js';

const repo = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'tollgate-api-schema-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('tollgate/schema', () => {
  it('gives the JSON Schemas committed under schemas/, byte for byte', () => {
    const schemas = jsonSchemas();
    expect(schemaText(schemas.get('tollgate.chain.schema.json')!)).toBe(
      readFileSync(join(repo, 'schemas', 'tollgate.chain.schema.json'), 'utf8'),
    );
    const written = writeSchemas(out);
    expect(written).toHaveLength(schemas.size);
    expect(readFileSync(join(out, 'tollgate.config.schema.json'), 'utf8')).toBe(
      readFileSync(join(repo, 'schemas', 'tollgate.config.schema.json'), 'utf8'),
    );
  });

  it('converts a web.xml to a chain document its own zod schema accepts', () => {
    const doc = convertWebXml(join(repo, 'examples', 'base', 'webapps', 'api', 'WEB-INF', 'web.xml'));
    expect((doc['contexts'] as { path: string }[])[0]!.path).toBe('/api');
    expect(chainDocumentSchema.safeParse(doc).success).toBe(true);
  });

  it('throws TollgateInputError for a file that is not a web.xml', () => {
    expect(() => convertWebXml(join(repo, 'package.json'))).toThrow(TollgateInputError);
    expect(() => convertWebXml('missing.xml', { cwd: out })).toThrow(/^missing\.xml: no such file$/);
  });
});
