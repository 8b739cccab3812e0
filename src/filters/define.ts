import * as z from 'zod';
import type { FilterSpec, ParamDoc, ParamNote, TomcatTarget } from './spec.js';

/** Both class names of a filter: Tomcat's and the spec's vendor-neutral one. */
export function classNamesOf(simpleName: string): string[] {
  return [`org.apache.catalina.filters.${simpleName}`, `org.vendor.container.filters.${simpleName}`];
}

export type ParamKind =
  | 'boolean'
  | 'integer'
  | 'long'
  | 'status'
  | 'string'
  | 'list'
  | 'regex'
  | 'cidr-list'
  | 'charset'
  | 'expires-rule'
  | 'class-name'
  | 'uri'
  | 'option'
  | 'url-patterns';

/** A note before it is attached to its parameter. */
export type Note = Omit<ParamNote, 'param'>;

/** What a zod issue of a param schema may carry in `params`. */
export interface IssueParams {
  ruleId?: string;
  /** Range inside the value text. */
  offset?: number;
  length?: number;
  /** 'warning' when Tomcat accepts the value but tollgate cannot run it; errors otherwise. */
  severity?: 'error' | 'warning';
}

/**
 * How one value is read: a zod schema that accepts the web.xml string and the
 * natural JSON form and fails only where Tomcat refuses the value, plus the
 * notes that do not stop the filter (a boolean spelt "yes", a regex tollgate
 * approximates).
 */
export interface ValueReader<S extends z.ZodType = z.ZodType> {
  schema: S;
  doc: ParamDoc;
  notes?: (value: unknown) => Note[];
  /**
   * What `schema` does with a string, without zod: the read (which reports through
   * ctx.addIssue) and the output for an absent value. Set only when the input schema
   * takes every string unchanged, so that reading text this way is what parsing it is.
   */
  text?: { read: (value: string, ctx: z.RefinementCtx) => unknown; defaultOut: () => unknown };
}

/** A parameter: its reader, its documentation and the kind of value Tomcat reads. */
export interface ParamDef<S extends z.ZodType = z.ZodType> extends ValueReader<S> {
  doc: ParamDoc & { kind: ParamKind };
}

/** Declares a parameter from a reader, with documentation added or overridden. */
export function param<S extends z.ZodType>(
  kind: ParamKind,
  reader: ValueReader<S>,
  doc: Partial<ParamDoc> = {},
): ParamDef<S> {
  // Copied with its accessors: a spread would build the reader's zod schema, which waits for first use.
  const out = Object.defineProperties({}, Object.getOwnPropertyDescriptors(reader)) as ParamDef<S>;
  out.doc = { ...reader.doc, ...doc, kind };
  return out;
}

/** Reports a value Tomcat refuses, from inside a zod transform (`path` names another parameter, for cross-parameter rules). */
export function refuse(ctx: z.RefinementCtx, message: string, params: IssueParams = {}, path?: string[]): void {
  ctx.addIssue({ code: 'custom', message, params: { ...params }, continue: true, ...(path ? { path } : {}) } as never);
}

/** How Tomcat finds the parameter an init-param name sets. */
export type NameMatching = 'exact' | 'bean' | ((name: string) => string | null);

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Values whose notes each parameter remembers. */
const RECENT_NOTES = 4;

/**
 * Declares a filter from its parameters. The schema reads the init-params
 * object (unknown names pass through untouched: validateFilterDef reports
 * them), then maps the typed values to the config the runtime runs on.
 */
export function defineFilter<P extends Record<string, ParamDef>, C>(def: {
  id: string;
  simpleName: string;
  description: string;
  params: P;
  dynamicParams?: Record<string, ParamDoc & { kind: ParamKind }>;
  configProblemsAreFatal: boolean;
  /** What Tomcat does with an init-param it does not know (default: fatal when configProblemsAreFatal, else logged). */
  unknownParams?: 'fatal' | 'logged' | 'ignored';
  /** Whether a bad value stops the filter even when unknown names do not (an init that throws). */
  valueProblemsAreFatal?: boolean;
  /** 'bean' for FilterBase filters (IntrospectionUtils setters), 'exact' for those that call getInitParameter. */
  names: NameMatching;
  addedIn?: TomcatTarget;
  removedIn?: TomcatTarget;
  versionNotes?: string[];
  /** Extra JSON Schema keywords for the params object (what zod cannot express, e.g. patternProperties). */
  jsonSchema?: Record<string, unknown>;
  toConfig: (
    values: { [K in keyof P]: z.output<P[K]['schema']> },
    raw: Record<string, unknown>,
    ctx: z.RefinementCtx,
  ) => C;
  /** Cross-parameter notes; `values()` reads the parameters (null when one cannot be read), only for the filters that need them. */
  notes?: (
    raw: Readonly<Record<string, unknown>>,
    opts: { target: TomcatTarget },
    values: () => { [K in keyof P]: z.output<P[K]['schema']> } | null,
  ) => ParamNote[];
}): FilterSpec<C> & { paramKinds: Record<string, ParamKind> } {
  const params: Record<string, ParamDoc> = {};
  const paramKinds: Record<string, ParamKind> = {};
  for (const [name, p] of Object.entries(def.params)) {
    params[name] = p.doc;
    paramKinds[name] = p.doc.kind;
  }
  // The zod schemas are built on first use (JSON Schemas, JSON input, a value parseText declines):
  // lint reads web.xml text through parseText, and building them was most of every CLI start's filter specs.
  let inputSchema: z.ZodType | undefined;
  let schema: z.ZodType | undefined;
  const inputSchemaOf = (): z.ZodType => {
    if (inputSchema) return inputSchema;
    const shape: Record<string, z.ZodType> = {};
    for (const [name, p] of Object.entries(def.params)) shape[name] = p.schema;
    return (inputSchema = z
      .looseObject(shape)
      .meta({ title: def.simpleName, description: def.description, ...def.jsonSchema }));
  };
  const schemaOf = (): z.ZodType =>
    (schema ??= inputSchemaOf().transform((values, ctx) =>
      def.toConfig(values as never, values as Record<string, unknown>, ctx),
    ));

  const byCapitalized = new Map(Object.keys(def.params).map((n) => [capitalize(n), n]));
  // The declared name itself, not the text of the init-param: params objects then get their keys from the
  // spec's own strings, which V8 need not look up in its string table for every filter validated.
  const exactNames = new Map(Object.keys(def.params).map((n) => [n, n]));
  const resolveParam =
    typeof def.names === 'function'
      ? def.names
      : def.names === 'bean'
        ? (name: string) => byCapitalized.get(capitalize(name)) ?? null
        : (name: string) => exactNames.get(name) ?? null;

  // A parameter's notes depend on its value alone, and applications repeat the same values: each
  // parameter remembers the notes of the last few values written as text. A short list compared
  // string by string, not a map: the values seen once (an application's own origin) only pass through.
  const recentNotes = new Map<ParamDef, { value: string; notes: Note[] }[]>();
  const paramNotes = (p: ParamDef, value: unknown): Note[] => {
    if (typeof value !== 'string') return p.notes!(value);
    let recent = recentNotes.get(p);
    if (!recent) recentNotes.set(p, (recent = []));
    for (const r of recent) if (r.value === value) return r.notes;
    const found = p.notes!(value);
    if (recent.length === RECENT_NOTES) recent.pop();
    recent.unshift({ value, notes: found });
    return found;
  };

  const notes = (raw: Readonly<Record<string, unknown>>, opts: { target: TomcatTarget }): ParamNote[] => {
    const out: ParamNote[] = [];
    for (const name in raw) {
      // for...in lists the own keys in Object.keys order (raw is a plain object), without a list of them.
      if (!Object.hasOwn(raw, name)) continue;
      const value = raw[name];
      const p = Object.hasOwn(def.params, name) ? def.params[name] : undefined;
      if (p?.notes && value !== undefined) for (const n of paramNotes(p, value)) out.push({ param: name, ...n });
    }
    if (def.notes) {
      out.push(
        ...def.notes(raw, opts, () => {
          const parsed = inputSchemaOf().safeParse(raw);
          return parsed.success ? (parsed.data as never) : null;
        }),
      );
    }
    return out;
  };

  // The schema's success path for web.xml text, without zod's machinery (a tenth of a lint of 1,000 applications
  // went to parsing their CorsFilters): each declared parameter read in declaration order, or its default, then
  // the undeclared ones as they are, then toConfig. Any issue, or anything but strings, and the caller asks zod,
  // which also words the errors.
  const readers = Object.entries(def.params).map(([name, p]) => [name, p.text] as const);
  const issues: unknown[] = [];
  const textCtx = { issues, addIssue: (issue: unknown) => void issues.push(issue), value: undefined as unknown };
  const parseText = readers.every(([name, t]) => t && name !== '__proto__')
    ? (raw: Readonly<Record<string, unknown>>): { data: C } | null => {
        // One reading at a time (reads and toConfig report synchronously): the spec's context, emptied.
        issues.length = 0;
        textCtx.value = raw;
        const ctx = textCtx as unknown as z.RefinementCtx;
        const values: Record<string, unknown> = {};
        for (const [name, t] of readers) {
          const v = raw[name];
          if (v === undefined) {
            if (name in raw) return null;
            values[name] = t!.defaultOut();
          } else if (typeof v === 'string' && Object.hasOwn(raw, name)) {
            values[name] = t!.read(v, ctx);
            if (issues.length) return null;
          } else return null;
        }
        for (const name in raw) {
          if (Object.hasOwn(def.params, name)) continue;
          if (name === '__proto__' || typeof raw[name] !== 'string') return null;
          values[name] = raw[name];
        }
        const data = def.toConfig(values as never, values, ctx);
        return issues.length ? null : { data };
      }
    : undefined;

  return {
    id: def.id,
    simpleName: def.simpleName,
    classNames: classNamesOf(def.simpleName),
    description: def.description,
    params,
    ...(def.dynamicParams ? { dynamicParams: def.dynamicParams } : {}),
    configProblemsAreFatal: def.configProblemsAreFatal,
    unknownParams: def.unknownParams ?? (def.configProblemsAreFatal ? 'fatal' : 'logged'),
    valueProblemsAreFatal: def.valueProblemsAreFatal ?? def.configProblemsAreFatal,
    ...(def.addedIn ? { addedIn: def.addedIn } : {}),
    ...(def.removedIn ? { removedIn: def.removedIn } : {}),
    ...(def.versionNotes ? { versionNotes: def.versionNotes } : {}),
    get schema(): z.ZodType<C, Record<string, unknown>> {
      return schemaOf() as unknown as z.ZodType<C, Record<string, unknown>>;
    },
    get inputSchema(): z.ZodType {
      return inputSchemaOf();
    },
    ...(parseText ? { parseText } : {}),
    paramKinds,
    resolveParam,
    notes,
  };
}
