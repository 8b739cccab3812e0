/**
 * Which error report a host sends: Tomcat's StandardHost adds an
 * ErrorReportValve to its own pipeline unless server.xml put one there, so
 * the report's `showReport` and `showServerInfo` come from the Host's
 * `<Valve className="org.apache.catalina.valves.ErrorReportValve">` alone
 * (one on the Engine reports nothing: the host's valve has already reported).
 */
import type { HostDef } from '../model/index.js';
import { createErrorReportRenderer, defaultErrorPage, SERVER_INFO, type ErrorRenderer } from '../runtime/error-page.js';

const VALVE_CLASSES = new Set([
  'org.apache.catalina.valves.ErrorReportValve',
  'org.vendor.container.valves.ErrorReportValve',
]);

/** The settings of a host's ErrorReportValve, as Tomcat's IntrospectionUtils sets boolean properties (Boolean.valueOf: "true" in any case, untrimmed, else false). */
export function errorReportSettings(host: Pick<HostDef, 'valves'> | null): {
  showReport: boolean;
  showServerInfo: boolean;
} {
  let showReport = true;
  let showServerInfo = true;
  for (const v of host?.valves ?? []) {
    if (!VALVE_CLASSES.has(v.className?.value.trim() ?? '')) continue;
    const report = v.attributes['showReport']?.value;
    const info = v.attributes['showServerInfo']?.value;
    if (report !== undefined) showReport = report.toLowerCase() === 'true';
    if (info !== undefined) showServerInfo = info.toLowerCase() === 'true';
  }
  return { showReport, showServerInfo };
}

/** The renderer of a host's error reports; `serverInfo` is the footer's text. */
export function hostErrorRenderer(
  host: Pick<HostDef, 'valves'> | null,
  serverInfo: string = SERVER_INFO,
): ErrorRenderer {
  const s = errorReportSettings(host);
  if (s.showReport && s.showServerInfo && serverInfo === SERVER_INFO) return defaultErrorPage;
  return createErrorReportRenderer({ ...s, serverInfo });
}
