/**
 * zod building blocks for init-param values, each reading a value exactly as
 * Tomcat does. Every one accepts the raw string of web.xml and the natural
 * JSON type of the JSON chain format, and yields the same typed output.
 */
import { z } from 'zod';
import { parseCidrList, type Cidr } from '../runtime/net.js';
import { translateJavaRegex } from './java-regex.js';

/** Boolean.valueOf: only a case-insensitive "true" is true; anything else, "yes" included, is false. */
export function javaBoolean(defaultValue: boolean, description: string) {
  return z
    .union([z.boolean(), z.string()])
    .transform((v) => (typeof v === 'boolean' ? v : v.trim().toLowerCase() === 'true'))
    .default(defaultValue)
    .meta({ description, default: defaultValue });
}

/** Integer.valueOf: an optional sign and decimal digits, within 32 bits; nothing else. */
export function javaInt(defaultValue: number, description: string, range: { min?: number; max?: number } = {}) {
  return z
    .union([z.number().int(), z.string().regex(/^[+-]?\d+$/, 'not a whole number (Java reads it with Integer.valueOf)')])
    .transform((v, ctx) => {
      const n = typeof v === 'number' ? v : Number(v);
      if (!Number.isInteger(n) || n > 2147483647 || n < -2147483648) {
        ctx.addIssue({ code: 'custom', message: `"${String(v)}" is not a whole number (Java reads it with Integer.valueOf)` });
        return z.NEVER;
      }
      if (range.min !== undefined && n < range.min) {
        ctx.addIssue({ code: 'custom', message: `${n} is below the smallest allowed value ${range.min}` });
        return z.NEVER;
      }
      if (range.max !== undefined && n > range.max) {
        ctx.addIssue({ code: 'custom', message: `${n} is above the largest allowed value ${range.max}` });
        return z.NEVER;
      }
      return n;
    })
    .default(defaultValue)
    .meta({ description, default: defaultValue });
}

/** An HTTP status code as an int init-param. */
export function statusCode(defaultValue: number, description: string) {
  return javaInt(defaultValue, description, { min: 100, max: 999 });
}

/** A comma-separated list, split and trimmed like Tomcat's filters do; empty entries dropped. */
export function commaList(defaultValue: string[], description: string) {
  return z
    .union([z.array(z.string()), z.string()])
    .transform((v) => (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter((s) => s !== ''))
    .default(defaultValue)
    .meta({ description, default: defaultValue.join(',') });
}

/** A plain string parameter with a default. */
export function text(defaultValue: string, description: string) {
  return z.string().meta({ description, default: defaultValue }).default(defaultValue);
}

/** A number the filter parses itself (and reports on): a JSON number or the raw text, kept as text. */
export function numericText(defaultValue: string, description: string) {
  return z
    .union([z.number().int(), z.string()])
    .transform((v) => String(v))
    .default(defaultValue)
    .meta({ description, default: defaultValue });
}

/** A plain string parameter that is unset (null) by default. */
export function optionalText(description: string) {
  return z.string().meta({ description }).nullable().default(null);
}

/** Java's canonical charset names and their common aliases (what Charset.forName accepts). */
const CHARSETS = new Map<string, string>(
  [
    ['UTF-8', 'UTF8'], ['ISO-8859-1', 'ISO8859_1', 'ISO_8859_1', 'latin1', 'l1', 'ISO-LATIN-1', '819', 'IBM819', 'cp819', 'csISOLatin1'],
    ['US-ASCII', 'ASCII', 'ascii7', 'default', 'iso-ir-6', 'ANSI_X3.4-1968', 'cp367', 'csASCII'],
    ['UTF-16', 'UTF16', 'UTF_16'], ['UTF-16BE', 'UnicodeBigUnmarked'], ['UTF-16LE', 'UnicodeLittleUnmarked'],
    ['UTF-32', 'UTF32'], ['UTF-32BE'], ['UTF-32LE'],
    ['windows-1250', 'cp1250'], ['windows-1251', 'cp1251'], ['windows-1252', 'cp1252'], ['windows-1253', 'cp1253'],
    ['windows-1254', 'cp1254'], ['windows-1255', 'cp1255'], ['windows-1256', 'cp1256'], ['windows-1257', 'cp1257'], ['windows-1258', 'cp1258'],
    ['ISO-8859-2', 'latin2'], ['ISO-8859-3', 'latin3'], ['ISO-8859-4', 'latin4'], ['ISO-8859-5', 'cyrillic'], ['ISO-8859-6', 'arabic'],
    ['ISO-8859-7', 'greek'], ['ISO-8859-8', 'hebrew'], ['ISO-8859-9', 'latin5'], ['ISO-8859-13', 'latin7'], ['ISO-8859-15', 'latin9', 'LATIN0'],
    ['KOI8-R'], ['KOI8-U'], ['Shift_JIS', 'sjis', 'shift-jis', 'ms_kanji'], ['windows-31j', 'MS932'], ['EUC-JP', 'eucjp'], ['ISO-2022-JP', 'jis'],
    ['EUC-KR', 'ksc5601'], ['GBK', 'CP936', 'windows-936'], ['GB18030'], ['GB2312', 'euc-cn'], ['Big5', 'csBig5'], ['Big5-HKSCS'], ['TIS-620'],
    ['IBM437', 'cp437'], ['IBM850', 'cp850'], ['x-UTF-16LE-BOM'], ['x-MacRoman', 'MacRoman'],
  ].flatMap(([canonical, ...aliases]) => [canonical!, ...aliases].map((n) => [charsetKey(n), canonical!] as [string, string])),
);

/** Java matches charset names case-insensitively, and its historical names use "_" where IANA uses "-" (EUC_JP). */
function charsetKey(name: string): string {
  return name.trim().toLowerCase().replace(/[-_]/g, '');
}

/** The canonical Java name of a charset, or null when Java would not know it. */
export function javaCharset(name: string): string | null {
  return CHARSETS.get(charsetKey(name)) ?? null;
}

/** A charset name Java accepts; `extra` adds special values (AddDefaultCharsetFilter's "default" and "system"). */
export function charset(defaultValue: string | null, description: string, extra: string[] = []) {
  const base = z.string().transform((v, ctx) => {
    const special = extra.find((e) => e.toLowerCase() === v.trim().toLowerCase());
    if (special) return special;
    const canonical = javaCharset(v);
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: `"${v}" is not a character set Java knows (e.g. UTF-8, ISO-8859-1, windows-1252${extra.length ? ', or ' + extra.join(', ') : ''})` });
      return z.NEVER;
    }
    return canonical;
  });
  return base.meta({ description, examples: ['UTF-8', 'ISO-8859-1', ...extra] }).nullable().default(defaultValue);
}

/** A Java regex translated for whole-string matching, kept as source text so configs stay JSON. */
export interface CompiledRegex {
  java: string;
  source: string;
  flags: string;
}

/** A java.util.regex parameter; errors carry `params.offset` inside the value for precise spans. */
export function javaRegex(description: string) {
  return z
    .string()
    .transform((v, ctx): CompiledRegex | null => {
      if (v === '') return null;
      const t = translateJavaRegex(v);
      for (const p of t.problems.filter((x) => x.severity === 'error')) {
        ctx.addIssue({
          code: 'custom',
          message: p.message,
          params: { severity: p.severity, offset: p.offset, length: p.length, ruleId: 'filter-param-regex' },
          continue: true,
        } as never);
      }
      if (!t.source) return z.NEVER;
      return { java: v, source: t.source, flags: t.flags };
    })
    .nullable()
    .default(null)
    .meta({ description });
}

/** RemoteCIDRFilter's list of CIDR masks, parsed as NetMask does. */
export function cidrList(description: string) {
  return z
    .union([z.array(z.string()), z.string()])
    .transform((v, ctx): Cidr[] => {
      const { cidrs, errors } = parseCidrList(typeof v === 'string' ? v : v.join(','));
      for (const e of errors) {
        ctx.addIssue({ code: 'custom', message: e.error, params: { offset: e.offset, length: e.entry.length, ruleId: 'filter-param-cidr' } } as never);
      }
      return errors.length ? z.NEVER : cidrs;
    })
    .default([])
    .meta({ description, examples: ['127.0.0.1, ::1', '10.0.0.0/8, fd00::/8'] });
}
