import * as z from 'zod';
import { javaBoolean, reader, readCharset, unknownCharsetMessage, type CharsetValue } from './values.js';
import { defineFilter, param, type Note } from './define.js';

const encoding = reader(
  z.string().meta({ title: 'web.xml text' }),
  {
    description:
      'Character encoding set on the request before its parameters are read. Unset: the filter does nothing.',
    examples: ['UTF-8', 'windows-1252'],
  },
  (v): CharsetValue | null => readCharset(v),
  (): CharsetValue | null => null,
  // Tomcat does not check the name at start-up: Request.setCharacterEncoding throws on each request instead.
  (v: unknown): Note[] =>
    typeof v === 'string' && readCharset(v).name === null
      ? [
          {
            ruleId: 'filter-param-invalid',
            severity: 'error',
            message: `${unknownCharsetMessage(v)}: Tomcat starts and never applies it, so requests are decoded in the default charset, not the one meant (observed on Tomcat 10.1.60: GET, a form POST and getReader() answered 200)`,
          },
        ]
      : [],
);

export const spec = defineFilter({
  id: 'set-character-encoding',
  simpleName: 'SetCharacterEncodingFilter',
  description:
    'Sets the character encoding used to decode request parameters and bodies (must run before anything reads them).',
  configProblemsAreFatal: false,
  names: 'bean',
  params: {
    encoding: param('charset', encoding),
    ignore: param(
      'boolean',
      javaBoolean(false, 'true: always set the encoding; false: only when the client sent none.'),
    ),
  },
  toConfig: (v) => ({
    /** Java's canonical name (what getCharacterEncoding returns), the name as written when Java does not know it, or null when unset. */
    encoding: v.encoding ? (v.encoding.name ?? v.encoding.given) : null,
    /** Node decoder for it (a Buffer encoding or a TextDecoder label); null when unset, unknown to Java, or not decodable by Node. */
    decoder: v.encoding?.decoder ?? null,
    /** False when the name is set but Java does not know it: every request the filter sets it on fails with 500. */
    supported: v.encoding === null || v.encoding.name !== null,
    ignore: v.ignore,
  }),
});
export type SetCharacterEncodingConfig = z.output<typeof spec.schema>;
