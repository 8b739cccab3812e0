import type { ParamNote } from './spec.js';
import { javaRegex, statusCode } from './values.js';
import { param } from './define.js';

/** Parameters shared by RemoteAddrFilter and RemoteHostFilter (Tomcat's RequestFilter). */
export function requestFilterParams(subject: string, example: string) {
  return {
    allow: param(
      'regex',
      javaRegex(
        `Java regex the ${subject} must match (the whole string) to be allowed. Empty or unset: no allow rule.`,
        { examples: [example] },
      ),
    ),
    deny: param(
      'regex',
      javaRegex(
        `Java regex that rejects the request when the ${subject} matches it (the whole string). Checked before allow.`,
      ),
    ),
    denyStatus: param(
      'status',
      statusCode(403, 'Status sent when a request is rejected (e.g. 404 to hide the resource).'),
    ),
  };
}

/**
 * RequestFilter decides: deny match rejects, allow match accepts, and anything
 * else is accepted only when deny is set and allow is not. With neither set,
 * every request is rejected.
 */
export function deniesEverything(raw: Readonly<Record<string, unknown>>, simpleName: string): ParamNote[] {
  const set = (name: string) => {
    const v = raw[name];
    return Array.isArray(v) ? v.length > 0 : typeof v === 'string' && v !== '';
  };
  if (set('allow') || set('deny')) return [];
  return [
    {
      param: 'allow',
      on: 'name',
      ruleId: 'filter-denies-everything',
      severity: 'error',
      message: `${simpleName} has neither allow nor deny: Tomcat then rejects every request. Set allow (or deny) to the clients you mean`,
    },
  ];
}
