/**
 * The body of `sendError` responses. Tomcat's ErrorReportValve renders an
 * HTML "HTTP Status N – Reason" report; this default carries the same facts
 * (status, reason phrase, message) in a small page of its own.
 */
import { STATUS_CODES } from 'node:http';

/** Renders an error response body; `message` is what the filter passed to sendError, if anything. */
export type ErrorRenderer = (status: number, message: string | null) => { contentType: string; body: string; headers?: Readonly<Record<string, string>> };

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

// Tomcat's report is rendered for the English locale and says so.
const LANGUAGE: Readonly<Record<string, string>> = { 'content-language': 'en' };

/** The default error report: an HTML page titled `HTTP Status 403 – Forbidden`. */
export const defaultErrorPage: ErrorRenderer = (status, message) => {
  const reason = STATUS_CODES[status];
  const title = escapeHtml(`HTTP Status ${status}${reason ? ` \u2013 ${reason}` : ''}`);
  let body = `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1><p><b>Type</b> Status Report</p>`;
  if (message !== null && message !== '') body += `<p><b>Message</b> ${escapeHtml(message)}</p>`;
  body += '</body></html>';
  return { contentType: 'text/html;charset=utf-8', body, headers: LANGUAGE };
};
