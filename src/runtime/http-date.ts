/**
 * HTTP dates as FastHttpDateFormat writes them (RFC 1123, the form
 * Date#toUTCString gives). Dates have whole seconds and a busy server sends
 * the same one many times a second (Expires counted from now, Last-Modified of
 * a file): the last one formatted is kept, so formatting happens at most once
 * per distinct second instead of once per request.
 */
let cachedSecond = Number.NaN;
let cachedText = '';

/** The IMF-fixdate of a time in ms since the epoch. */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    cachedText = new Date(ms).toUTCString();
    cachedSecond = second;
  }
  return cachedText;
}
