import { describe, expect, it } from 'vitest';
import type { ConfigElement } from '../../src/model/index.js';
import { errorReportSettings, hostErrorRenderer } from '../../src/server/error-report.js';

const span = { file: 'server.xml', line: 1, column: 1, endLine: 1, endColumn: 1, offset: 0, endOffset: 0 };
function valve(className: string, attributes: Record<string, string>): ConfigElement {
  const located = (value: string) => ({ value, span });
  return {
    tag: 'Valve',
    className: located(className),
    attributes: Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, located(v)])),
    children: [],
    span,
  } as ConfigElement;
}

describe("a host's ErrorReportValve from server.xml", () => {
  it("defaults to Tomcat's: report and server info shown", () => {
    expect(errorReportSettings(null)).toEqual({ showReport: true, showServerInfo: true });
    expect(errorReportSettings({ valves: [] })).toEqual({ showReport: true, showServerInfo: true });
  });

  it('reads showReport and showServerInfo as Boolean.valueOf does ("TRUE" is true, anything else false)', () => {
    const host = {
      valves: [valve('org.apache.catalina.valves.ErrorReportValve', { showReport: 'false', showServerInfo: 'TRUE' })],
    };
    expect(errorReportSettings(host)).toEqual({ showReport: false, showServerInfo: true });
    expect(
      errorReportSettings({
        valves: [valve('org.apache.catalina.valves.ErrorReportValve', { showReport: 'yes', showServerInfo: ' true' })],
      }),
    ).toEqual({ showReport: false, showServerInfo: false });
  });

  it('ignores other valves', () => {
    expect(
      errorReportSettings({ valves: [valve('org.apache.catalina.valves.AccessLogValve', { showReport: 'false' })] }),
    ).toEqual({ showReport: true, showServerInfo: true });
  });

  it('renders what the valve says, with the configured server info', () => {
    const r = hostErrorRenderer(
      { valves: [valve('org.apache.catalina.valves.ErrorReportValve', { showServerInfo: 'false' })] },
      'Apache Tomcat/10.1.60',
    );
    const body = r(404, null)!.body;
    expect(body).not.toContain('<h3>');
    expect(hostErrorRenderer(null, 'Apache Tomcat/10.1.60')(404, null)!.body).toContain(
      '<h3>Apache Tomcat/10.1.60</h3>',
    );
  });
});
