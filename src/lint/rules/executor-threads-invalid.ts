import type { ConfigElement, Located } from '../../model/index.js';
import type { Rule } from '../types.js';

/** Tomcat's default StandardThreadExecutor, which an <Executor> without className creates. */
const STANDARD = 'org.apache.catalina.core.StandardThreadExecutor';

/**
 * The value Tomcat's setter receives: IntrospectionUtils converts with Integer.valueOf (a sign and
 * digits, no spaces); a value it cannot convert is ignored with a log line (attribute-invalid-value
 * reports that), so the default applies.
 */
function effective(a: Located<string> | undefined, fallback: number): number {
  if (a === undefined || !/^[+-]?[0-9]+$/.test(a.value)) return fallback;
  const n = Number(a.value);
  return n >= -(2 ** 31) && n < 2 ** 31 ? n : fallback;
}

function executors(root: ConfigElement | undefined): ConfigElement[] {
  const out: ConfigElement[] = [];
  for (const service of root?.children ?? [])
    if (service.tag === 'Service') for (const e of service.children) if (e.tag === 'Executor') out.push(e);
  return out;
}

/**
 * StandardThreadExecutor.startInternal builds `new ThreadPoolExecutor(minSpareThreads, maxThreads,
 * maxIdleTime, …, new TaskQueue(maxQueueSize))`, which throws IllegalArgumentException when
 * maxThreads <= 0, minSpareThreads < 0, maxThreads < minSpareThreads or maxIdleTime < 0, and the queue
 * when maxQueueSize <= 0. The Service fails to start and with it the server ("The required Server
 * component failed to start", observed on 9.0.70 and 10.1.60 for maxThreads="20" beside the default
 * minSpareThreads of 25). Connectors' own pools do not fail this way: AbstractEndpoint caps
 * minSpareThreads at maxThreads.
 */
export const rule: Rule = {
  meta: {
    id: 'executor-threads-invalid',
    description:
      'An <Executor> whose thread pool Java cannot build: maxThreads below minSpareThreads (25 by default), maxThreads of 0 or less, a negative minSpareThreads or maxIdleTime, or maxQueueSize of 0 or less.',
    defaultSeverity: 'error',
    effect: 'refuses',
    reason:
      'StandardThreadExecutor creates its ThreadPoolExecutor at start, which throws IllegalArgumentException: the Service and so the server do not start (observed on 9.0.70 and 10.1.60).',
    category: 'correctness',
  },
  check(ctx) {
    for (const e of executors(ctx.base.serverXml?.element)) {
      const className = e.className?.value ?? STANDARD;
      if (className !== STANDARD) continue;
      const a = e.attributes;
      const name = a['name']?.value ?? '';
      const label = `<Executor name="${name}">`;
      const max = effective(a['maxThreads'], 200);
      const min = effective(a['minSpareThreads'], 25);
      const idle = effective(a['maxIdleTime'], 60_000);
      const queue = effective(a['maxQueueSize'], 2 ** 31 - 1);
      const stops =
        'Java cannot build the pool (IllegalArgumentException): the Service and the whole server do not start.';
      if (max <= 0) {
        ctx.report({
          message: `${label}: maxThreads="${max}" leaves no thread; ${stops}`,
          span: (a['maxThreads'] ?? e).span,
        });
      } else if (min < 0) {
        ctx.report({
          message: `${label}: minSpareThreads="${min}" is negative; ${stops}`,
          span: a['minSpareThreads']!.span,
        });
      } else if (max < min) {
        const where = a['minSpareThreads'] ? `minSpareThreads="${min}"` : `the default minSpareThreads of ${min}`;
        ctx.report({
          message: `${label}: maxThreads="${max}" is below ${where}; ${stops} Raise maxThreads or lower minSpareThreads to at most ${max}.`,
          span: (a['maxThreads'] ?? a['minSpareThreads'] ?? e).span,
        });
      }
      if (idle < 0)
        ctx.report({ message: `${label}: maxIdleTime="${idle}" is negative; ${stops}`, span: a['maxIdleTime']!.span });
      if (queue <= 0)
        ctx.report({
          message: `${label}: maxQueueSize="${queue}" gives a queue without room; ${stops}`,
          span: a['maxQueueSize']!.span,
        });
    }
  },
};
