import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_SPECS } from '../../src/filters/index.js';
import { generateSchemas, schemaText } from '../../src/schema/generate.js';

const dir = join(import.meta.dirname, '..', '..', 'schemas');
const schemas = generateSchemas();

describe('schemas/ is generated from the zod schemas', () => {
  for (const [file, schema] of schemas) {
    it(`${file} is up to date (run: tollgate schema)`, () => {
      expect(readFileSync(join(dir, file), 'utf8')).toBe(schemaText(schema));
    });
    it(`${file} is draft-07 and compiles with ajv in strict mode`, () => {
      expect(schema['$schema']).toBe('http://json-schema.org/draft-07/schema#');
      // zod writes string-or-boolean values as a type list, which strict mode wants allowed explicitly.
      const ajv = new Ajv({ strict: true, allowUnionTypes: true });
      expect(() => ajv.compile(schema)).not.toThrow();
    });
  }
});

/** Checks JSON Schema cannot express; each filter schema names them in its description. */
const LINT_ONLY_KINDS = new Set(['charset', 'regex', 'cidr-list', 'expires-rule', 'status', 'integer']);

describe('zod and the JSON Schemas agree on parameter sets', () => {
  for (const spec of FILTER_SPECS) {
    const names = Object.keys(spec.params);
    if (names.length === 0) continue;
    it(`${spec.simpleName}: ajv and zod give the same verdict, or zod refuses only what "checked by tollgate lint" covers`, () => {
      const validate = new Ajv({ strict: true, allowUnionTypes: true }).compile(
        schemas.get(`filters/${spec.id}.schema.json`)!,
      );
      const value = fc.oneof(
        fc.constantFrom(
          'true',
          'false',
          'yes',
          'TRUE',
          '',
          '0',
          '-1',
          '403',
          '1e3',
          'abc',
          'UTF-8',
          'klingon',
          'DENY',
          'sameOrigin',
          'ALLOW-FROM',
          '10.0.0.0/8',
          '10.0/16',
          '127\\.0\\.0\\.1',
          '(?>x)',
          'access plus 1 day',
        ),
        fc.boolean(),
        fc.integer({ min: -5, max: 70000 }),
        fc.array(fc.constantFrom('a', 'GET', '/x'), { maxLength: 3 }),
        fc.constant(null),
      );
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 4 }), (params) => {
          const ajvOk = validate(params);
          const zod = spec.inputSchema.safeParse(params);
          if (ajvOk === zod.success) return true;
          if (!ajvOk) return false; // the JSON Schema may never be stricter than tollgate
          return zod.error!.issues.every((i) => LINT_ONLY_KINDS.has(spec.paramKinds[String(i.path[0])] ?? ''));
        }),
        { numRuns: 300, seed: 7 },
      );
    });
  }
});
