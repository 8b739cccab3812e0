import * as z from 'zod';
import { reader, readCharset, unknownCharsetMessage } from './values.js';
import { defineFilter, param, refuse, type Note } from './define.js';

/** What "system" resolves to: Charset.defaultCharset(), UTF-8 on Java 18+ and on UTF-8 locales. */
const SYSTEM_CHARSET = 'UTF-8';

const LATIN1 = { encoding: 'ISO-8859-1', charset: 'ISO-8859-1' };

const encoding = reader(
  z.string().meta({ title: 'web.xml text' }),
  {
    description:
      'Character set added to text/* responses that set none. Unset, empty or "default": ISO-8859-1; "system": the JVM default.',
    default: 'default',
    examples: ['UTF-8', 'default', 'system'],
  },
  (v, ctx): { encoding: string; charset: string } => {
    if (v === '' || v.toLowerCase() === 'default') return { ...LATIN1 };
    if (v.toLowerCase() === 'system') return { encoding: SYSTEM_CHARSET, charset: SYSTEM_CHARSET };
    const cs = readCharset(v);
    if (!cs.name)
      refuse(ctx, `${unknownCharsetMessage(v)}: init throws ("Specified character set [${v}] is not supported")`);
    // Tomcat appends the name as written ("charset=utf8"), not Java's canonical one.
    return { encoding: v, charset: cs.name ?? v };
  },
  () => ({ ...LATIN1 }),
  (v: unknown): Note[] =>
    typeof v === 'string' && v.toLowerCase() === 'system'
      ? [
          {
            ruleId: 'filter-param-invalid',
            severity: 'info',
            message: `"system" is the JVM's default charset: UTF-8 on Java 18 and later, the locale's before. tollgate uses ${SYSTEM_CHARSET}; name the charset to be sure`,
          },
        ]
      : [],
);

export const spec = defineFilter({
  id: 'add-default-charset',
  simpleName: 'AddDefaultCharsetFilter',
  description: 'Adds a charset to text/* responses whose Content-Type has none, so browsers do not guess one.',
  configProblemsAreFatal: false,
  valueProblemsAreFatal: true,
  names: 'bean',
  params: { encoding: param('charset', encoding) },
  toConfig: (v) => ({
    /** The text appended as ";charset=...". */
    encoding: v.encoding.encoding,
    /** Java's canonical name of that charset. */
    charset: v.encoding.charset,
  }),
});
export type AddDefaultCharsetConfig = z.output<typeof spec.schema>;
