import type { z } from 'zod';

/** Tomcat versions whose differences the linter knows. */
export type TomcatTarget = '9.0' | '10.1' | '11.0';

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
  /**
   * Input: the init-params as Tomcat sees them (name -> raw string).
   * Output: the typed config. Issues carry `path: [paramName]`.
   */
  schema: z.ZodType<Config, Record<string, string>>;
  /** The init-params object alone (no cross-parameter rules): the source of the JSON Schema. */
  inputSchema: z.ZodType;
  /** How Tomcat reads each parameter (drives boolean-spelling and similar checks). */
  paramKinds: Readonly<Record<string, string>>;
}
