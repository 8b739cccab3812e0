import * as z from 'zod';

export const RULE_LEVELS = ['off', 'info', 'warn', 'error'] as const;
export type RuleLevel = (typeof RULE_LEVELS)[number];

/**
 * The rule sets of `tollgate lint --profile`: `recommended` (the default) reports what is wrong or
 * unsafe in itself; `cis` and `stig` add the hardening rules of the CIS Apache Tomcat 10.1 Benchmark
 * and of the DISA STIG for Apache Tomcat, at the levels those benchmarks ask.
 */
export const PROFILES = ['recommended', 'cis', 'stig'] as const;
export type Profile = (typeof PROFILES)[number];

/** The object schema of tollgate.config.json, built by configFileSchema on first use. */
function buildConfigFileSchema() {
  const connectorRef = z
    .object({
      port: z.number().int().min(0).max(65_535).meta({ description: 'The port the Connector listens on.' }),
      address: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'The address it is approved to bind (omitted: any address the SSP names for it).' }),
    })
    .strict();

  const waiver = z
    .object({
      control: z
        .string()
        .regex(/^(cis-tomcat-10\.1|stig-tomcat):\S+$/)
        .optional()
        .meta({ description: 'The control accepted, `stig-tomcat:V-222935` or `cis-tomcat-10.1:6.3`.' }),
      rule: z
        .string()
        .min(1)
        .optional()
        .meta({ description: "The rule whose findings are accepted (all of that rule's controls)." }),
      file: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'Only findings in this file (a path relative to the base, or absolute).' }),
      justification: z
        .string()
        .min(1)
        .meta({ description: 'Why the deviation is accepted (the ticket, the risk acceptance).' }),
      by: z.string().min(1).meta({ description: 'Who accepted it (the ISSO, the system owner).' }),
      expires: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional()
        .meta({ description: 'The last day the acceptance holds (YYYY-MM-DD); after it the control fails again.' }),
    })
    .strict()
    .refine((w) => w.control !== undefined || w.rule !== undefined, { message: 'a waiver names a control or a rule' });

  const auditSection = z
    .object({
      behindProxy: z.boolean().optional().meta({
        description:
          'Whether a reverse proxy or load balancer terminates client connections in front of Tomcat (STIG V-222937, V-222935, CIS 6.3/6.4).',
      }),
      approvedConnectors: z
        .array(connectorRef)
        .optional()
        .meta({ description: 'The connectors the SSP approves (STIG V-223008, V-223009; CIS 1.2).' }),
      approvedPrivilegedApps: z
        .array(z.string().regex(/^(\/\S*)?$/))
        .optional()
        .meta({
          description: 'Context paths the ISSO approved to run privileged="true" (STIG V-222961), e.g. "/manager".',
        }),
      jmxHost: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'The address JMX remote may bind to, as the SSP names it (STIG V-222963, V-222964).' }),
      managerMaxSessions: z
        .number()
        .int()
        .min(1)
        .optional()
        .meta({ description: "The manager's simultaneous sessions the SSP allows (STIG V-222926)." }),
      waivers: z.array(waiver).optional().meta({
        description: 'Accepted deviations: reported as accepted with their justification, failing again once expired.',
      }),
    })
    .strict()
    .optional()
    .meta({
      description:
        "The site's facts tollgate audit cannot read from the files, as MITRE's InSpec profiles take them as inputs, and accepted deviations.",
    });

  return z
    .object({
      $schema: z.string().optional(),
      rules: z
        .record(z.string(), z.enum(RULE_LEVELS))
        .optional()
        .meta({ description: 'Rule id -> off | info | warn | error.' }),
      ignore: z
        .array(z.string())
        .optional()
        .meta({ description: 'Globs (picomatch, relative to this file) of files not to lint.' }),
      target: z
        .enum(['9.0', '10.1', '11.0'])
        .optional()
        .meta({ description: 'Tomcat version the configuration runs on.' }),
      profile: z.enum(PROFILES).optional().meta({
        description:
          'Rule set: recommended (default), cis (adds the CIS Apache Tomcat 10.1 Benchmark rules) or stig (adds the DISA STIG rules). `rules` levels apply on top.',
      }),
      store: z
        .object({
          url: z
            .string()
            .regex(
              /^(memory|redis|rediss?:\/\/.+)$/,
              'write memory, redis (TOLLGATE_REDIS_URL, else redis://127.0.0.1:6379) or a redis:// URL',
            )
            .meta({
              description:
                'memory (the default), redis (the URL in TOLLGATE_REDIS_URL, else redis://127.0.0.1:6379) or a redis:// / rediss:// URL.',
            }),
          prefix: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'Prepended to every Redis key (default tollgate:).' }),
          timeoutMs: z.number().int().min(1).max(60_000).optional().meta({
            description: 'Most milliseconds a Redis command may take before the request fails closed (default 300).',
          }),
          connectTimeoutMs: z
            .number()
            .int()
            .min(1)
            .max(60_000)
            .optional()
            .meta({ description: 'Most milliseconds to wait for a connection (default 1000).' }),
          failOpen: z.boolean().optional().meta({
            description:
              'RateLimitFilter lets requests through while Redis cannot count them (default false: they are refused).',
          }),
        })
        .strict()
        .optional()
        .meta({
          description:
            'Where tollgate serve keeps sessions, CSRF nonces, rate-limit windows and the lock-out table (docs/deployment.md). `serve --store` wins over it.',
        }),
      accounts: z
        .object({
          admin: z.string().min(1).optional().meta({
            description:
              'Owner of CATALINA_HOME, conf/ and the files Tomcat only reads (default: root for stig, tomcat_admin for cis).',
          }),
          service: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'Account Tomcat runs as, owner of logs/, temp/ and work/ (default: tomcat).' }),
          group: z
            .string()
            .min(1)
            .optional()
            .meta({ description: 'Group of every Tomcat file and folder (default: tomcat).' }),
        })
        .strict()
        .optional()
        .meta({
          description:
            "Account names file-owner judges ownership against (the benchmarks' tomcat_admin / root, tomcat and tomcat).",
        }),
      audit: auditSection,
    })
    .strict()
    .meta({
      title: 'tollgate.config.json',
      description: 'Configuration of tollgate lint and of the state tollgate serve shares.',
    });
}

/**
 * The schema of tollgate.config.json (also the source of schemas/tollgate.config.schema.json). Through z.lazy: its
 * object schemas are built when a tollgate.config.json is first read or the JSON Schema written, not by every
 * start of the CLI (building them was the largest part of zod's share of `tollgate lint <one web.xml>`).
 */
export const configFileSchema = z.lazy(buildConfigFileSchema);

export type ConfigFile = z.output<typeof configFileSchema>;
export type Accounts = NonNullable<ConfigFile['accounts']>;
export type AuditFacts = NonNullable<ConfigFile['audit']>;
export type Waiver = NonNullable<AuditFacts['waivers']>[number];
