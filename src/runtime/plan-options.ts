/**
 * The one step from a context's plan to the runtime's options. `tollgate compile` writes what this
 * returns into each module, `tollgate serve` and `tollgate/embed` pass it to createContextRuntime, so
 * a context runs the same filters, table, error pages, MIME map, session timeout and request encoding
 * whichever way it is run (test/plan/runtime-options.test.ts builds all three and compares).
 */
import type { FilterConfigs, FilterId, PlannedFilter } from '../filters/configs.js';
import type { SelectorTable } from '../protocol/chain-selector.js';
import type { ErrorPageEntry } from './context.js';
import { FILTER_FACTORIES } from './filters/index.js';
import { mimeMappingsAgainstDefaults } from './mime.js';
import type { FilterDeclaration } from './types.js';

/** What the runtime reads of a context's plan (src/plan's ContextPlan has it). */
export interface RuntimePlan {
  readonly contextPath: string;
  readonly sessionTimeoutMinutes: number;
  /** `<Manager maxActiveSessions>`; absent or negative: no limit. */
  readonly maxActiveSessions?: number;
  readonly requestCharacterEncoding: string | null;
  readonly filters: readonly PlannedFilter[];
  readonly table: SelectorTable;
  readonly errorPages: readonly ErrorPageEntry[];
  readonly mimeMappings: Readonly<Record<string, string>>;
}

/** The runtime's options a plan decides; the caller adds its own (stores, connector limits, servlet, ...). */
export interface PlanRuntimeOptions {
  readonly contextPath: string;
  readonly sessionTimeoutMinutes: number;
  readonly maxActiveSessions: number;
  readonly requestCharacterEncoding: string | null;
  readonly filters: readonly FilterDeclaration[];
  readonly table: SelectorTable;
  readonly errorPages: readonly ErrorPageEntry[];
  /** The context's own `<mime-mapping>`s beyond (or instead of) Tomcat's stock table. */
  readonly mimeTypes: Readonly<Record<string, string>>;
  /** Whether Tomcat's stock table stays under `mimeTypes`. */
  readonly mimeDefaults: boolean;
}

/** The declaration of one planned filter: its id's factory with the config its id's schema gave. */
export function filterDeclaration<K extends FilterId>(f: PlannedFilter<K>): FilterDeclaration<FilterConfigs[K]> {
  return { filterName: f.filterName, className: f.className, factory: FILTER_FACTORIES[f.specId], config: f.config };
}

/** Whether `id` names a filter the runtime has a factory for. */
export function isFilterId(id: string): id is FilterId {
  return Object.prototype.hasOwnProperty.call(FILTER_FACTORIES, id);
}

/** The runtime's options for a planned context. */
export function runtimeOptionsOf(plan: RuntimePlan): PlanRuntimeOptions {
  const mime = mimeMappingsAgainstDefaults(plan.mimeMappings);
  return {
    contextPath: plan.contextPath,
    sessionTimeoutMinutes: plan.sessionTimeoutMinutes,
    maxActiveSessions: plan.maxActiveSessions ?? -1,
    requestCharacterEncoding: plan.requestCharacterEncoding,
    filters: plan.filters.map((f) => filterDeclaration(f)),
    table: plan.table,
    errorPages: plan.errorPages.map((p) => ({
      errorCode: p.errorCode,
      exceptionType: p.exceptionType ?? null,
      location: p.location,
    })),
    mimeTypes: mime.mappings,
    mimeDefaults: mime.defaults,
  };
}
