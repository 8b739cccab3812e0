/**
 * Readers for init-param values, each reading a value exactly as Tomcat does.
 * Every one accepts the raw string of web.xml and the natural JSON type of the
 * JSON chain format, and yields the same typed output.
 */
import * as z from 'zod';
import { javaCharset, isLegalCharsetName, suggestCharset } from '../protocol/charsets.js';
import { boundedMemo } from '../protocol/memo.js';
import { refuse, type Note, type ValueReader } from './define.js';
import {
  commaSeparatedTexts,
  JAVA_INT_MAX,
  JAVA_INT_MIN,
  javaSplit,
  parseJavaInteger,
  splitCommaSeparated,
  trimPieces,
  type Piece,
} from './java-text.js';
import { translateJavaRegex, type TranslatedRegex } from './java-regex.js';

/** The same patterns recur across thousands of applications: translate each once (bounded, so hostile input cannot grow it forever). */
const translated: (java: string) => TranslatedRegex = boundedMemo(translateJavaRegex, 2000);

const TEXT = z.string().meta({ title: 'web.xml text' });

/**
 * A string input whose JSON Schema carries a pattern. The pattern is only
 * JSON Schema metadata (editors flag what it rejects); the zod transform does
 * the real reading and words the error.
 */
export function patternText(pattern: string, title = 'web.xml text'): z.ZodString {
  return z.string().meta({ title, pattern });
}

/** Schema kinds that pass a string through unchanged when they accept it, and refuse it otherwise. */
const PLAIN = new Set(['string', 'enum', 'array', 'number', 'boolean']);

/**
 * Whether a reader's input schema takes every string unchanged: a string schema without checks,
 * or a union of plain kinds with one (the first option that accepts a string returns it as it is).
 */
function takesAnyString(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; checks?: unknown[]; options?: z.ZodType[] };
  const bareString = (d: typeof def): boolean => d.type === 'string' && !d.checks?.length;
  if (bareString(def)) return true;
  if (def.type !== 'union' || !def.options) return false;
  const options = def.options.map((o) => o._zod.def as typeof def);
  return options.every((o) => PLAIN.has(o.type)) && options.some(bareString);
}

/**
 * An input schema built on first use (the JSON Schemas, JSON input, a value the text path declines), with
 * whether it takes every string unchanged, which the text path needs at once; checked when it is built.
 * Building the filters' input schemas when their modules were evaluated was most of zod's share of every
 * CLI start (`tollgate lint <one web.xml>` never builds one).
 */
export interface LazyInput<I extends z.ZodType> {
  anyString: boolean;
  build: () => I;
}

/**
 * A reader from an input schema, its documentation (one text for the JSON
 * Schema and the ParamDoc), a read function that calls `refuse` for values
 * Tomcat refuses, the default output, and the notes that do not stop the filter.
 */
export function reader<I extends z.ZodType, T>(
  input: I | LazyInput<I>,
  doc: { description: string; default?: unknown; examples?: string[] },
  read: (value: z.output<I>, ctx: z.RefinementCtx) => T,
  defaultOut: () => T,
  notes?: (value: unknown) => Note[],
) {
  const lazy: LazyInput<I> = '_zod' in input ? { anyString: takesAnyString(input), build: () => input } : input;
  const inputOf = (): I => {
    const built = lazy.build();
    if (takesAnyString(built) !== lazy.anyString)
      throw new Error(
        `reader: the input schema ${lazy.anyString ? 'does not take' : 'takes'} every string, unlike its declaration`,
      );
    return built;
  };
  const meta: Record<string, unknown> = { description: doc.description };
  if (doc.default !== undefined) meta['default'] = doc.default;
  if (doc.examples) meta['examples'] = doc.examples;
  // Built on first use: web.xml text is read through `text` below without zod, and building every
  // parameter's chain up front was most of evaluating the filter specs at every CLI start.
  let schema: z.ZodType<T, z.input<I> | undefined> | undefined;
  const shown =
    doc.default === undefined || doc.default === null
      ? undefined
      : Array.isArray(doc.default)
        ? doc.default.join(',')
        : String(doc.default);
  const textRead = (v: string, ctx: z.RefinementCtx): unknown => read(v as z.output<I>, ctx);
  return {
    get schema(): z.ZodType<T, z.input<I> | undefined> {
      return (schema ??= inputOf()
        .meta(meta)
        .transform((v, ctx) => {
          const before = ctx.issues.length;
          const out = read(v, ctx);
          return ctx.issues.length > before ? z.NEVER : out;
        })
        .default(defaultOut as never) as unknown as z.ZodType<T, z.input<I> | undefined>);
    },
    ...(lazy.anyString ? { text: { read: textRead, defaultOut } } : {}),
    doc: {
      description: doc.description,
      ...(shown !== undefined ? { default: shown } : {}),
      ...(doc.examples ? { examples: doc.examples } : {}),
    },
    ...(notes ? { notes } : {}),
  } satisfies ValueReader;
}

/** Boolean.parseBoolean: only "true", in any case, is true; "yes", "1", "on" and "" are false. */
export function javaBoolean(defaultValue: boolean, description: string) {
  return reader(
    { anyString: true, build: () => z.union([z.boolean().meta({ title: 'JSON boolean' }), TEXT]) },
    { description, default: defaultValue, examples: ['true', 'false'] },
    (v) => (typeof v === 'boolean' ? v : v.toLowerCase() === 'true'),
    () => defaultValue,
    booleanNotes,
  );
}

function booleanNotes(v: unknown): Note[] {
  if (typeof v !== 'string' || v === 'true' || v === 'false') return [];
  const lower = v.toLowerCase();
  if (lower === 'true' || lower === 'false') {
    return [
      {
        ruleId: 'filter-param-boolean-spelling',
        severity: 'info',
        message: `Tomcat reads "${v}" as ${lower}; write ${lower}`,
        replacement: lower,
      },
    ];
  }
  // Boolean.parseBoolean: a value that says yes is read as false, the switch the other way round from what it says.
  // No automatic fix: "true" would change what Tomcat runs today, which a reviewer should see.
  if (/^(yes|y|on|1|enabled?|active)$/i.test(v)) {
    return [
      {
        ruleId: 'filter-param-boolean-spelling',
        severity: 'error',
        message: `Tomcat reads "${v}" as false (only "true" is true), so this switch is off although it says yes. Write true`,
      },
    ];
  }
  if (/^(no|n|off|0|disabled?|inactive)$/i.test(v)) {
    return [
      {
        ruleId: 'filter-param-boolean-spelling',
        severity: 'info',
        message: `Tomcat reads "${v}" as false, as meant, but only "true" and "false" say so to every reader. Write false`,
        replacement: 'false',
      },
    ];
  }
  return [
    {
      ruleId: 'filter-param-boolean-spelling',
      severity: 'warning',
      message: `Tomcat reads ${v === '' ? 'an empty value' : `"${v}"`} as false: only "true" is true. Write true or false`,
    },
  ];
}

/** Integer.parseInt (or Long.parseLong with bits 64): sign and digits only, no blanks, in range. */
export function javaInt(
  defaultValue: number,
  description: string,
  opts: {
    bits?: 32 | 64;
    notes?: (n: number) => Note[];
    examples?: string[];
    emptyAs?: number;
    min?: { value: number; message: string };
  } = {},
) {
  const bits = opts.bits ?? 32;
  const javaName = bits === 32 ? 'Integer.parseInt' : 'Long.parseLong';
  const inRange = (n: number) => bits === 64 || (n >= JAVA_INT_MIN && n <= JAVA_INT_MAX);
  return reader(
    {
      anyString: true,
      build: () =>
        z.union([
          (bits === 32 ? z.number().int().min(JAVA_INT_MIN).max(JAVA_INT_MAX) : z.number().int()).meta({
            title: 'JSON number',
          }),
          patternText(
            opts.emptyAs === undefined ? '^[+-]?[0-9]+$' : '^([+-]?[0-9]+)?$',
            `web.xml text, read with ${javaName}`,
          ),
        ]),
    },
    { description, default: defaultValue, ...(opts.examples ? { examples: opts.examples } : {}) },
    (v, ctx) => {
      if (v === '' && opts.emptyAs !== undefined) return opts.emptyAs;
      const n = typeof v === 'number' ? (inRange(v) ? v : null) : parseJavaInteger(v, bits);
      if (n !== null && opts.min && n < opts.min.value) {
        refuse(ctx, opts.min.message.replace('{n}', String(n)));
        return 0;
      }
      if (n === null) {
        const why = typeof v === 'string' && v.trim() !== v ? ' (Java does not trim it)' : '';
        refuse(ctx, `${typeof v === 'string' ? `"${v}"` : v} is not a whole number ${javaName} accepts${why}`);
        return 0;
      }
      return n;
    },
    () => defaultValue,
    opts.notes
      ? (v) => {
          const n = typeof v === 'number' ? v : typeof v === 'string' ? parseJavaInteger(v, bits) : null;
          return n === null ? [] : opts.notes!(n);
        }
      : undefined,
  );
}

/** An HTTP status code in an int init-param: any int starts, but only 100-599 means something to a client. */
export function statusCode(defaultValue: number, description: string) {
  return javaInt(defaultValue, description, {
    examples: [String(defaultValue), '404'],
    notes: (n) =>
      n >= 100 && n <= 599
        ? []
        : [
            {
              ruleId: 'filter-param-invalid',
              severity: 'error',
              message: `${n} is not an HTTP status code (100-599): Tomcat sends it anyway and clients cannot interpret the response`,
            },
          ],
  });
}

/** A list in one string, split as the filter splits it: 'java' is String.split(",") then trim (empty entries kept), 'tomcat' is StringUtils.splitCommaSeparated. */
export function splitList(text: string, split: 'java' | 'tomcat'): Piece[] {
  return split === 'tomcat' ? splitCommaSeparated(text) : trimPieces(javaSplit(text));
}

/** A comma-separated list, from a string or a JSON array of strings. */
export function commaList(
  defaultValue: string[],
  description: string,
  opts: { split?: 'java' | 'tomcat'; examples?: string[]; notes?: (value: unknown) => Note[] } = {},
) {
  const split = opts.split ?? 'java';
  return reader(
    { anyString: true, build: () => z.union([z.array(z.string()).meta({ title: 'JSON list' }), TEXT]) },
    { description, default: defaultValue, ...(opts.examples ? { examples: opts.examples } : {}) },
    (v) =>
      typeof v === 'string'
        ? split === 'tomcat'
          ? commaSeparatedTexts(v)
          : splitList(v, split).map((p) => p.text)
        : v.map((s) => s.trim()),
    () => [...defaultValue],
    opts.notes,
  );
}

/** A plain string parameter with a default. */
export function text(defaultValue: string, description: string, examples?: string[]) {
  return reader(
    TEXT,
    { description, default: defaultValue, ...(examples ? { examples } : {}) },
    (v) => v,
    () => defaultValue,
  );
}

/** A plain string parameter that is unset (null) by default. */
export function optionalText(description: string, examples?: string[]) {
  return reader(
    TEXT,
    { description, ...(examples ? { examples } : {}) },
    (v): string | null => v,
    (): string | null => null,
  );
}

/** A charset Java knows, resolved to its canonical name and the Node decoder for it. */
export interface CharsetValue {
  /** The name as written (Tomcat uses this text, e.g. in Content-Type). */
  given: string;
  /** Java's canonical name, or null when Java does not know the charset. */
  name: string | null;
  decoder: string | null;
}

/** Reads a charset name as Charset.forName would (illegal names are unknown too). */
export function readCharset(v: string): CharsetValue {
  const cs = isLegalCharsetName(v) ? javaCharset(v) : null;
  return { given: v, name: cs?.name ?? null, decoder: cs?.decoder ?? null };
}

/** The message for a charset name Java does not know. */
export function unknownCharsetMessage(v: string): string {
  const hint = suggestCharset(v);
  return `"${v}" is not a character set Java knows${hint ? `; did you mean ${hint}?` : ' (e.g. UTF-8, ISO-8859-1, windows-1252)'}`;
}

/** A Java regex translated for whole-string matching, kept as source text so configs stay JSON. */
export interface CompiledRegex {
  java: string;
  source: string;
  flags: string;
}

/** Translates a Java regex for the config, or reports why it cannot be (null when the value is empty); `at` is its offset in the value. */
export function compileRegex(java: string, ctx: z.RefinementCtx, at = 0): CompiledRegex | null {
  if (java === '') return null;
  const t = translated(java);
  for (const p of t.problems) {
    if (p.severity !== 'error') continue;
    const tomcatAccepts = p.code !== 'java-syntax';
    refuse(
      ctx,
      tomcatAccepts
        ? `${p.message}: Tomcat accepts the pattern, but tollgate cannot run it`
        : `${p.message}: Pattern.compile refuses it`,
      {
        ruleId: 'filter-param-regex',
        offset: at + p.offset,
        length: p.length,
        severity: tomcatAccepts ? 'warning' : 'error',
      },
    );
  }
  return t.source ? { java, source: t.source, flags: t.flags } : null;
}

/** Where translating a valid Java regex loses exactness: warnings inside the value. */
export function regexNotes(v: unknown): Note[] {
  if (typeof v !== 'string' || v === '') return [];
  return translated(v)
    .problems.filter((p) => p.severity === 'warning')
    .map((p) => ({
      ruleId: 'filter-param-regex',
      severity: 'warning' as const,
      message: p.message,
      offset: p.offset,
      length: p.length,
    }));
}

/** A java.util.regex parameter matched against the whole string; empty or unset is null (no pattern). */
export function javaRegex(description: string, opts: { defaultJava?: string; examples?: string[] } = {}) {
  // The default is translated when a filter without the parameter is first read, not when the module is
  // evaluated: RemoteIpFilter's was 3.7 ms of every CLI start (bench/README.md, cold start).
  let frozen: CompiledRegex | null | undefined;
  const defaultOut = (): CompiledRegex | null => {
    if (frozen === undefined) {
      const t = opts.defaultJava ? translated(opts.defaultJava) : null;
      frozen = opts.defaultJava && t ? { java: opts.defaultJava, source: t.source, flags: t.flags } : null;
    }
    return frozen ? { ...frozen } : null;
  };
  return reader(
    TEXT,
    {
      description,
      ...(opts.defaultJava ? { default: opts.defaultJava } : {}),
      ...(opts.examples ? { examples: opts.examples } : {}),
    },
    (v, ctx) => compileRegex(v, ctx),
    defaultOut,
    regexNotes,
  );
}
