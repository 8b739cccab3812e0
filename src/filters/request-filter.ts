import { javaRegex, statusCode } from './values.js';
import { param } from './define.js';

/** Parameters shared by RemoteAddrFilter and RemoteHostFilter (Tomcat's RequestFilter). */
export function requestFilterParams(subject: string) {
  return {
    allow: param('regex', javaRegex(`Java regex the ${subject} must match (whole string) to be allowed.`), { examples: ['127\\.\\d+\\.\\d+\\.\\d+|0:0:0:0:0:0:0:1|::1'] }),
    deny: param('regex', javaRegex(`Java regex that, when the ${subject} matches it (whole string), rejects the request.`)),
    denyStatus: param('status', statusCode(403, 'Status sent when a request is rejected (e.g. 404 to hide the resource).')),
  };
}
