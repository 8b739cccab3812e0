import * as z from 'zod';
import { FILTER_SPECS } from '../filters/index.js';

/** One filter entry of a tollgate.chain.json context, for the filter with this spec. */
function filterEntry(spec: (typeof FILTER_SPECS)[number]) {
  return z
    .object({
      name: z.string().min(1).meta({ description: 'The filter name mappings refer to.' }),
      class: z.enum(spec.classNames as [string, ...string[]]).meta({ description: spec.description }),
      // z.lazy: the filter's schema is built when a chain document is parsed or its JSON Schema written,
      // not when lint (which evaluates this module) starts (src/filters/define.ts builds it on first use).
      params: z.lazy(() => spec.inputSchema).optional(),
      asyncSupported: z.boolean().optional(),
    })
    .strict()
    .meta({ title: spec.simpleName });
}

/** The object schema of a tollgate.chain.json, built by chainDocumentSchema on first use. */
function buildChainDocumentSchema() {
  const DISPATCHER = z.enum(['REQUEST', 'FORWARD', 'INCLUDE', 'ERROR', 'ASYNC']);

  const otherFilter = z
    .object({
      name: z.string().min(1),
      class: z
        .string()
        .regex(/^(?!org\.(apache\.catalina|vendor\.container)\.filters\.)/)
        .meta({ description: 'Any other filter class (not checked by tollgate).' }),
      params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
      asyncSupported: z.boolean().optional(),
    })
    .strict()
    .meta({ title: 'Other filter' });

  const mapping = z
    .object({
      filter: z.string().min(1).meta({ description: 'Name of a filter of this context (or of the global chain).' }),
      urlPatterns: z
        .array(z.string())
        .optional()
        .meta({ description: 'Servlet url-patterns: "/exact", "/prefix/*", "*.ext", "/".' }),
      servletNames: z.array(z.string()).optional().meta({ description: 'Servlet names; "*" is every servlet.' }),
      dispatchers: z.array(DISPATCHER).optional().meta({ description: 'Default: ["REQUEST"].' }),
    })
    .strict();

  const context = z
    .object({
      host: z.string().optional().meta({ description: 'Virtual host (default "localhost").' }),
      path: z
        .string()
        .regex(/^(\/.*)?$/)
        .meta({ description: 'Context path: "" or "/" for the root, else "/name".' }),
      // z.lazy: one object schema per filter class, built when a chain document is first parsed or its
      // JSON Schema written, not when lint (which evaluates this module) starts.
      filters: z
        .array(
          z.lazy(() =>
            z.union([...FILTER_SPECS.map(filterEntry), otherFilter] as unknown as [
              z.ZodType,
              z.ZodType,
              ...z.ZodType[],
            ]),
          ),
        )
        .optional(),
      mappings: z.array(mapping).optional(),
      sessionTimeoutMinutes: z.number().int().optional(),
      servletMappings: z.record(z.string(), z.string()).optional().meta({
        description: 'url-pattern -> servlet name, for servlet-name filter mappings (e.g. { "/": "default" }).',
      }),
      welcomeFiles: z.array(z.string()).optional(),
    })
    .strict();

  /** The JSON chain format (tollgate.chain.json): contexts with typed filters and mappings. */
  return z
    .object({
      $schema: z.string().optional(),
      version: z.literal(1).meta({ description: 'Format version.' }),
      global: z
        .object({
          filters: context.shape.filters,
          mappings: context.shape.mappings,
          servletMappings: context.shape.servletMappings,
          welcomeFiles: context.shape.welcomeFiles,
        })
        .strict()
        .optional()
        .meta({
          description:
            'What conf/web.xml would hold: filters, mappings, servlet mappings and welcome files merged into every context as Tomcat merges them. Without it, stock Tomcat defaults apply ("/" -> default, "*.jsp"/"*.jspx" -> jsp; index.html, index.htm, index.jsp).',
        }),
      contexts: z.array(context),
    })
    .strict()
    .meta({
      title: 'tollgate.chain.json',
      description:
        'Filter chains for Node services, in place of web.xml. Checked by tollgate lint like a CATALINA_BASE.',
    });
}

/**
 * The schema of tollgate.chain.json (also the source of schemas/tollgate.chain.schema.json). Through z.lazy: its
 * object schemas are built when a chain document is first read or the JSON Schema written, not by every start of
 * the CLI (lint evaluates this module).
 */
export const chainDocumentSchema = z.lazy(buildChainDocumentSchema);
