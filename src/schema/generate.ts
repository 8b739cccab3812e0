import * as z from 'zod';
import { FILTER_SPECS } from '../filters/index.js';
import { configFileSchema } from './config-document.js';
import { chainDocumentSchema } from './chain-document.js';
import { SCHEMA_BASE_URL } from './urls.js';

/** What JSON Schema cannot say about a filter, named so editors show that tollgate lint checks it. */
const LINT_ONLY: Record<string, string> = {
  cors: 'cors.support.credentials=true with cors.allowed.origins="*", and the origin list syntax',
  'http-header-security': 'that antiClickJackingUri is a valid URI when the option is ALLOW-FROM',
  'remote-addr': 'that allow and deny are valid Java regexes, translated for whole-string matching',
  'remote-host': 'that allow and deny are valid Java regexes, translated for whole-string matching',
  'remote-ip': 'that internalProxies and trustedProxies are valid Java regexes',
  'remote-cidr': 'that every entry is an address or address/prefix as NetMask reads it',
  expires: 'the ExpiresByType / ExpiresDefault rule language',
};

function toSchema(schema: z.ZodType, id: string): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return { ...json, $id: `${SCHEMA_BASE_URL}/${id}` };
}

// zod's JSON Schema output, rewritten in place: its shape is zod's and JSON Schema's, walked by key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/**
 * zod writes a filter entry as anyOf over the sixteen filter classes, and an
 * editor then guesses which branch a half-typed entry belongs to (often the
 * wrong one). if/then on "class" tells it: the entry's own class selects the
 * parameter schema, so validation and completion follow the class written.
 */
function selectByClass(doc: Json): Json {
  const rewrite = (filters: Json | undefined): void => {
    const items = filters?.['items'] as Json | undefined;
    const branches = items?.['anyOf'] as Json[] | undefined;
    if (!items || !branches) return;
    const classNames = branches.flatMap((b) => (b['properties']?.['class']?.['enum'] as string[] | undefined) ?? []);
    delete items['anyOf'];
    Object.assign(items, {
      type: 'object',
      required: ['name', 'class'],
      properties: {
        name: { type: 'string', minLength: 1, description: 'The filter name mappings refer to.' },
        class: {
          type: 'string',
          description: 'A container filter class, or any other filter class (not checked by tollgate).',
          examples: classNames,
        },
        params: { type: 'object' },
        asyncSupported: { type: 'boolean' },
      },
      additionalProperties: false,
      allOf: branches.map((b) => {
        const cls = b['properties']['class'];
        return cls['enum']
          ? {
              if: { properties: { class: { enum: cls['enum'] } }, required: ['class'] },
              then: { properties: { params: { ...b['properties']['params'], additionalProperties: false } } },
            }
          : {
              if: { properties: { class: { not: { enum: classNames } } }, required: ['class'] },
              then: { properties: { params: b['properties']['params'] } },
            };
      }),
    });
  };
  const contextItems = doc['properties']?.['contexts']?.['items'] as Json | undefined;
  rewrite(contextItems?.['properties']?.['filters']);
  rewrite(doc['properties']?.['global']?.['properties']?.['filters']);
  return doc;
}

/** Every generated schema, by file name under schemas/. Generated from the zod schemas and nothing else. */
export function generateSchemas(): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const spec of FILTER_SPECS) {
    const file = `filters/${spec.id}.schema.json`;
    const s = toSchema(spec.inputSchema, file);
    const lintOnly = LINT_ONLY[spec.id];
    s['description'] =
      `${spec.description}${lintOnly ? ` Checked by tollgate lint, not by this schema: ${lintOnly}.` : ''}`;
    // Editors should flag a misspelt parameter name (tollgate lint reports it too, with a suggestion).
    s['additionalProperties'] = false;
    out.set(file, s);
  }
  out.set('tollgate.chain.schema.json', selectByClass(toSchema(chainDocumentSchema, 'tollgate.chain.schema.json')));
  out.set('tollgate.config.schema.json', toSchema(configFileSchema, 'tollgate.config.schema.json'));
  return out;
}

/** The text written for one schema (stable: same input, same bytes). */
export function schemaText(schema: Record<string, unknown>): string {
  return JSON.stringify(schema, null, 2) + '\n';
}
