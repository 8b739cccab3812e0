import { afterAll, describe, expect, it } from 'vitest';
import { effectOf } from '../../src/lint/severity.js';
import { app, cleanup, lintFiles } from './helpers.js';

afterAll(cleanup);

/** The REST filter mapped to exact URLs only (line 4 of the web.xml app() writes). */
const rest = (urls: string[], params = '') =>
  `<filter><filter-name>rc</filter-name><filter-class>org.apache.catalina.filters.RestCsrfPreventionFilter</filter-class>${params}</filter>\n` +
  `<filter-mapping><filter-name>rc</filter-name>${urls.map((u) => `<url-pattern>${u}</url-pattern>`).join('')}</filter-mapping>`;
const constraint = (pattern: string, methods: string, tag = 'http-method') =>
  `<security-constraint><web-resource-collection><web-resource-name>w</web-resource-name><url-pattern>${pattern}</url-pattern>${methods
    .split(',')
    .filter(Boolean)
    .map((m) => `<${tag}>${m}</${tag}>`)
    .join(
      '',
    )}</web-resource-collection><auth-constraint><role-name>u</role-name></auth-constraint></security-constraint>`;
const cors = (methods: string | null, pattern: string) =>
  `<filter><filter-name>cors</filter-name><filter-class>org.apache.catalina.filters.CorsFilter</filter-class>${
    methods === null
      ? ''
      : `<init-param><param-name>cors.allowed.methods</param-name><param-value>${methods}</param-value></init-param>`
  }</filter><filter-mapping><filter-name>cors</filter-name><url-pattern>${pattern}</url-pattern></filter-mapping>`;
const formCsrf = (pattern: string) =>
  `<filter><filter-name>csrf</filter-name><filter-class>org.apache.catalina.filters.CsrfPreventionFilter</filter-class></filter><filter-mapping><filter-name>csrf</filter-name><url-pattern>${pattern}</url-pattern></filter-mapping>`;

const found = (body: string) =>
  lintFiles(app(body))
    .filter((d) => d.ruleId === 'rest-csrf-not-covering')
    .map((d) => ({
      at: `${d.span.line}:${d.span.column}`,
      severity: d.severity,
      effect: effectOf(d),
      message: d.message,
    }));

describe('rest-csrf-not-covering: the filter on exact URLs while the application shows other state-changing paths', () => {
  it('a security constraint on POST/DELETE under /api/* is not covered by the one exact URL: warning at the mapping', () => {
    const [d, ...rest_] = found(`${rest(['/api/transfer'])}\n${constraint('/api/*', 'POST,DELETE')}`);
    expect(rest_).toEqual([]);
    expect(d).toMatchObject({ at: '4:1', severity: 'warning', effect: 'weakens' });
    expect(d!.message).toContain('sees "/api/transfer" only');
    expect(d!.message).toContain('"/api/*"');
    expect(d!.message).toContain('a security-constraint guards POST, DELETE');
  });

  it('a constraint that omits only GET and HEAD leaves the modifying methods constrained: warning', () => {
    const [d] = found(`${rest(['/api/transfer'])}\n${constraint('/orders/*', 'GET,HEAD', 'http-method-omission')}`);
    expect(d).toMatchObject({ at: '4:1' });
    expect(d!.message).toContain('guards POST, PUT, PATCH, DELETE');
  });

  it('its own pathsAcceptingParams outside its mapping: warning naming them', () => {
    const params =
      '<init-param><param-name>pathsAcceptingParams</param-name><param-value>/api/transfer, /upload</param-value></init-param>';
    const [d] = found(rest(['/api/transfer'], params));
    expect(d).toMatchObject({ at: '4:1' });
    expect(d!.message).toContain('"/upload" too (pathsAcceptingParams)');
    expect(d!.message).not.toContain('"/api/transfer" too');
  });

  it('a CorsFilter whose configured methods allow PUT on /data/*: warning', () => {
    const [d] = found(`${rest(['/api/a', '/api/b'])}\n${cors('GET,PUT', '/data/*')}`);
    expect(d).toMatchObject({ at: '4:1' });
    expect(d!.message).toContain('sees "/api/a", "/api/b" only');
    expect(d!.message).toContain('CorsFilter "cors" allows PUT');
  });

  it('the servlets of the application keep their own message (exact URL against a prefix servlet)', () => {
    const servlet =
      '<servlet><servlet-name>api</servlet-name><servlet-class>com.example.Api</servlet-class></servlet><servlet-mapping><servlet-name>api</servlet-name><url-pattern>/api/*</url-pattern></servlet-mapping>';
    const [d] = found(`${rest(['/api/transfer'])}\n${servlet}`);
    expect(d).toMatchObject({ at: '4:1' });
    expect(d!.message).toContain(`does not see the application's servlets at "/api/*"`);
  });

  describe('quiet when nothing shows another state-changing path, or it is covered', () => {
    it.each([
      ['nothing else in the descriptor', rest(['/api/transfer'])],
      ['a constraint on GET only', `${rest(['/api/transfer'])}\n${constraint('/api/*', 'GET')}`],
      [
        'a constraint on every method (names none): not a statement about modifying requests',
        `${rest(['/api/transfer'])}\n${constraint('/admin/*', '')}`,
      ],
      [
        'a constraint on the exact URL the filter sees',
        `${rest(['/api/transfer'])}\n${constraint('/api/transfer', 'POST')}`,
      ],
      ['a constraint under a prefix the filter sees', `${rest(['/api/*'])}\n${constraint('/api/orders/*', 'POST')}`],
      ['the filter on /*', `${rest(['/*'])}\n${constraint('/admin/*', 'POST')}`],
      [
        "a CorsFilter with Tomcat's default methods (the author named none)",
        `${rest(['/api/transfer'])}\n${cors(null, '/*')}`,
      ],
      ['a CorsFilter allowing only safe methods', `${rest(['/api/transfer'])}\n${cors('GET,HEAD,OPTIONS', '/data/*')}`],
      [
        'pathsAcceptingParams inside the mapping',
        rest(
          ['/api/*'],
          '<init-param><param-name>pathsAcceptingParams</param-name><param-value>/api/upload</param-value></init-param>',
        ),
      ],
      [
        'the form CsrfPreventionFilter guards the other area',
        `${rest(['/api/transfer'])}\n${constraint('/admin/*', 'POST')}\n${formCsrf('/admin/*')}`,
      ],
    ])('%s', (_, body) => {
      expect(found(body)).toEqual([]);
    });
  });
});
