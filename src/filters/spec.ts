import type * as z from 'zod';
import type { Severity } from '../model/index.js';

/** Tomcat versions whose differences the linter knows. */
export type TomcatTarget = '9.0' | '10.1' | '11.0';

/** The targets in release order, for "from version X on" comparisons. */
export const TOMCAT_TARGETS: readonly TomcatTarget[] = ['9.0', '10.1', '11.0'];

/** Documentation of one init-param, the source of JSON Schema descriptions, docs tables and editor completion. */
export interface ParamDoc {
  description: string;
  /** Tomcat's default, as the string a user would write; undefined when there is none. */
  default?: string;
  /** Example values for docs and JSON Schema `examples`. */
  examples?: string[];
  /** Other spellings Tomcat (or config samples) accept for the same parameter. */
  aliases?: string[];
  /** The Tomcat version that dropped this parameter (an unknown parameter from then on). */
  removedIn?: TomcatTarget;
  /**
   * Spellings found in documentation samples and real configurations that
   * Tomcat does NOT read (RemoteIpFilter's `remoteIpProxiesHeader`): validation
   * suggests this parameter for them.
   */
  seenAs?: string[];
  /** Set when Tomcat never reads this init-param although it is documented; says what happens instead. */
  ignoredByTomcat?: string;
  /** Releases that changed this parameter (added it, changed its default), for docs and --target notes. */
  versionNotes?: string[];
}

/**
 * A finding about an init-param that does not stop Tomcat from starting the
 * filter: a value Tomcat reads differently from how it looks, one that has no
 * effect, or one tollgate's runtime approximates.
 */
export interface ParamNote {
  /** The init-param (the name as the params object has it). */
  param: string;
  ruleId: string;
  severity: Severity;
  message: string;
  /** Whether the note is about the parameter's value (default) or its name. */
  on?: 'value' | 'name';
  /** A range inside the value (or name) text; the whole text when absent. */
  offset?: number;
  length?: number;
  /** A safe replacement for that range (the whole text when no range), for `--fix`. */
  replacement?: string;
}

/**
 * Everything tollgate knows about one filter: its class names, its parameters,
 * and the zod schema that turns the init-param strings into the typed,
 * JSON-serialisable config the runtime runs on.
 */
export interface FilterSpec<Config = unknown> {
  /** Short kebab-case id, also the file name in src/filters and src/runtime/filters (`cors`, `remote-ip`). */
  id: string;
  /** `CorsFilter`. */
  simpleName: string;
  /** Fully-qualified names that select this filter (org.apache.catalina.filters.* and org.vendor.container.filters.*). */
  classNames: readonly string[];
  description: string;
  /** Parameters by exact name. Dynamic names (ExpiresByType <type>) are described by `dynamicParams`. */
  params: Readonly<Record<string, ParamDoc>>;
  /** A prefix for dynamically named parameters, with their doc (`ExpiresByType `). */
  dynamicParams?: Readonly<Record<string, ParamDoc>>;
  /**
   * Whether Tomcat refuses to start the context when an init-param is unknown
   * or invalid (FilterBase.isConfigProblemFatal): decides error vs warning.
   */
  configProblemsAreFatal: boolean;
  /** What Tomcat does with an unknown init-param: refuse to start, log a warning, or ignore it silently. */
  unknownParams: 'fatal' | 'logged' | 'ignored';
  /** Whether an invalid value stops the filter (and so the application). */
  valueProblemsAreFatal: boolean;
  /** Version facts for `--target`. */
  addedIn?: TomcatTarget;
  removedIn?: TomcatTarget;
  /** Releases that added or changed the filter, for docs. */
  versionNotes?: string[];
  /**
   * Input: the init-params as Tomcat sees them (name -> raw string), or their
   * natural JSON types (booleans, numbers, arrays of strings).
   * Output: the typed config. Issues carry `path: [paramName]` and, in
   * `params`, `ruleId`, `offset`/`length` inside the value and `severity`
   * (error unless said otherwise): every issue is a reason there is no config.
   */
  schema: z.ZodType<Config, Record<string, unknown>>;
  /**
   * schema.safeParse(params) when it succeeds on params that are all strings, computed without zod;
   * null when the params are anything else or have a problem (then ask schema, which words the errors).
   */
  parseText?(params: Readonly<Record<string, unknown>>): { data: Config } | null;
  /** The init-params object alone (no cross-parameter rules): the source of the JSON Schema. */
  inputSchema: z.ZodType;
  /** How Tomcat reads each parameter (drives boolean-spelling and similar checks). */
  paramKinds: Readonly<Record<string, string>>;
  /**
   * The parameter Tomcat sets for an init-param name, or null when it reads no
   * such parameter. FilterBase filters find a setter from the name with its
   * first letter upper-cased, so `HstsEnabled` sets `hstsEnabled`.
   */
  resolveParam(name: string): string | null;
  /** Findings that do not stop the filter (what the schema cannot fail on). Names are resolved already. */
  notes(params: Readonly<Record<string, unknown>>, opts: { target: TomcatTarget }): ParamNote[];
}
