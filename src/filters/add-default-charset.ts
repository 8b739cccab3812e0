import { charset } from './values.js';
import { defineFilter, param } from './define.js';

export const spec = defineFilter({
  id: 'add-default-charset',
  simpleName: 'AddDefaultCharsetFilter',
  description: 'Sets a character set on text responses that have none, so browsers do not guess one.',
  configProblemsAreFatal: false,
  valueProblemsAreFatal: true,
  params: {
    encoding: param('charset', charset(null, 'Character set added when the servlet set none. "default" is ISO-8859-1, "system" the platform default.', ['default', 'system']), { default: 'ISO-8859-1', examples: ['UTF-8', 'default', 'system'] }),
  },
  toConfig: (v) => ({
    /** null and "default" mean ISO-8859-1; "system" is resolved by the runtime (Node: UTF-8). */
    encoding: v.encoding === null || v.encoding === 'default' ? 'ISO-8859-1' : v.encoding,
  }),
});
export type AddDefaultCharsetConfig = ReturnType<typeof spec.schema.parse>;
