import { z } from 'zod';
import type { FilterSpec, ParamDoc, TomcatTarget } from './spec.js';

/** Both class names of a filter: Tomcat's and the spec's vendor-neutral one. */
export function classNamesOf(simpleName: string): string[] {
  return [`org.apache.catalina.filters.${simpleName}`, `org.vendor.container.filters.${simpleName}`];
}

export type ParamKind = 'boolean' | 'integer' | 'string' | 'list' | 'regex' | 'cidr-list' | 'charset' | 'expires-rule' | 'status';

/** A parameter's zod schema with its documentation and the kind of value Tomcat reads. */
export interface ParamDef<S extends z.ZodType = z.ZodType> {
  schema: S;
  doc: ParamDoc & { kind: ParamKind };
}

export function param<S extends z.ZodType>(kind: ParamKind, schema: S, doc: Omit<ParamDoc, 'description'> & { description?: string } = {}): ParamDef<S> {
  const meta = (schema as z.ZodType & { meta(): Record<string, unknown> | undefined }).meta() ?? {};
  const description = doc.description ?? (meta['description'] as string | undefined) ?? '';
  const def = meta['default'];
  return {
    schema,
    doc: { kind, ...doc, description, ...(doc.default === undefined && def !== undefined && def !== null ? { default: String(def) } : {}) },
  };
}

/**
 * Declares a filter from its parameters. The schema reads the init-params
 * object, ignores unknown names (validateFilterDef reports them), and maps the
 * typed values to the config the runtime runs on.
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
  addedIn?: TomcatTarget;
  removedIn?: TomcatTarget;
  toConfig: (values: { [K in keyof P]: z.output<P[K]['schema']> }, raw: Record<string, unknown>, ctx: z.RefinementCtx) => C;
}): FilterSpec<C> & { paramKinds: Record<string, ParamKind> } {
  const shape: Record<string, z.ZodType> = {};
  const params: Record<string, ParamDoc> = {};
  const paramKinds: Record<string, ParamKind> = {};
  for (const [name, p] of Object.entries(def.params)) {
    shape[name] = p.schema;
    params[name] = p.doc;
    paramKinds[name] = p.doc.kind;
  }
  // Strict, so JSON Schemas and editors flag a misspelt parameter; dynamically named ones (ExpiresByType ...) pass through.
  const object = (def.dynamicParams ? z.object(shape).catchall(z.unknown()) : z.object(shape).strict()).meta({ title: def.simpleName, description: def.description });
  const known = new Set(Object.keys(shape));
  const schema = z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
    .transform((raw, ctx) => {
      // Unknown names are validateFilterDef's to report (with Tomcat's severity), not a parse failure.
      const input = def.dynamicParams ? raw : Object.fromEntries(Object.entries(raw).filter(([k]) => known.has(k)));
      const parsed = object.safeParse(input);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, continue: true } as never);
        return z.NEVER;
      }
      return def.toConfig(parsed.data as never, raw, ctx);
    });
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
    schema: schema as unknown as z.ZodType<C, Record<string, string>>,
    inputSchema: object,
    paramKinds,
  } as FilterSpec<C> & { paramKinds: Record<string, ParamKind> };
}
