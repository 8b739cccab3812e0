import { charset, javaBoolean } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'set-character-encoding',
  simpleName: 'SetCharacterEncodingFilter',
  description: 'Sets the character encoding used to decode request parameters (must run before anything reads them).',
  configProblemsAreFatal: false,
  params: {
    encoding: param('charset', charset(null, 'Encoding set on the request.')),
    ignore: param('boolean', javaBoolean(false, 'true: always set the encoding; false: only when the client sent none.')),
  },
  toConfig: (v) => ({ encoding: v.encoding, ignore: v.ignore }),
});
export type SetCharacterEncodingConfig = ReturnType<typeof spec.schema.parse>;
