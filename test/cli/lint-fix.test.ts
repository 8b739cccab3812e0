import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/index.js';
import { app, cleanup, filter, tree } from '../lint/helpers.js';

afterAll(cleanup);

async function run(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (out += t), cwd });
  return { code, out };
}

const webXml = 'webapps/app/WEB-INF/web.xml';

describe('tollgate lint --fix', () => {
  it('renames a misspelt parameter, changes no other byte, and a second run changes nothing', async () => {
    const dir = tree(app(filter('h', 'HttpHeaderSecurityFilter', { hstsMaxAgeSecond: '31536000' })));
    const before = readFileSync(join(dir, webXml), 'latin1');
    expect((await run(['lint', dir], dir)).code).toBe(1);
    await run(['lint', dir, '--fix'], dir);
    const after = readFileSync(join(dir, webXml), 'latin1');
    expect(after).toBe(before.replace('hstsMaxAgeSecond<', 'hstsMaxAgeSeconds<'));
    expect((await run(['lint', dir], dir)).code).toBe(0);
    await run(['lint', dir, '--fix'], dir);
    expect(readFileSync(join(dir, webXml), 'latin1')).toBe(after);
  });

  it('normalises the case of a boolean (TRUE -> true) and leaves "yes" for a person to decide', async () => {
    const dir = tree(
      app(
        filter('s', 'SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'TRUE' }) +
          filter('t', 'SetCharacterEncodingFilter', { encoding: 'UTF-8', ignore: 'yes' }),
      ),
    );
    await run(['lint', dir, '--fix'], dir);
    const text = readFileSync(join(dir, webXml), 'utf8');
    expect(text).toContain('<param-value>true</param-value>');
    // "yes" means false to Tomcat but true to its author: no automatic fix can know which was meant.
    expect(text).toContain('<param-value>yes</param-value>');
  });

  const misspelt = (name: string) =>
    app(filter(name, 'HttpHeaderSecurityFilter', { hstsMaxAgeSecond: '31536000' }))[webXml]!.replace(/\n/g, '\r\n');

  it('keeps CRLF line ends and ISO-8859-1 bytes exactly', async () => {
    const text = misspelt('h\u00e9').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const dir = tree({ [webXml]: '' });
    writeFileSync(join(dir, webXml), Buffer.from(text, 'latin1'));
    await run(['lint', dir, '--fix'], dir);
    expect(
      readFileSync(join(dir, webXml)).equals(
        Buffer.from(text.replace('hstsMaxAgeSecond<', 'hstsMaxAgeSeconds<'), 'latin1'),
      ),
    ).toBe(true);
  });

  it('keeps a UTF-8 byte order mark and multi-byte characters before the edit', async () => {
    const text = misspelt('h\u00e9\u{1F600}');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const dir = tree({ [webXml]: '' });
    writeFileSync(join(dir, webXml), Buffer.concat([bom, Buffer.from(text, 'utf8')]));
    await run(['lint', dir, '--fix'], dir);
    expect(
      readFileSync(join(dir, webXml)).equals(
        Buffer.concat([bom, Buffer.from(text.replace('hstsMaxAgeSecond<', 'hstsMaxAgeSeconds<'), 'utf8')]),
      ),
    ).toBe(true);
  });

  it('leaves a file alone when its bytes did not decode cleanly', async () => {
    const text = misspelt('h');
    const dir = tree({ [webXml]: '' });
    const bytes = Buffer.concat([
      Buffer.from(text.replace('</web-app>', '<!-- '), 'utf8'),
      Buffer.from([0xff]),
      Buffer.from(' -->\r\n</web-app>\r\n'),
    ]);
    writeFileSync(join(dir, webXml), bytes);
    const r = await run(['lint', dir, '--fix'], dir);
    expect(r.out).toContain('cannot be rewritten safely');
    expect(readFileSync(join(dir, webXml)).equals(bytes)).toBe(true);
  });
});

describe('baselines', () => {
  it("records today's findings and then fails only on new ones", async () => {
    const dir = tree(app(filter('c', 'CorsFilter')));
    const w = await run(['lint', dir, '--baseline-write', 'tollgate-baseline.json'], dir);
    expect(w.code).toBe(0);
    expect(w.out).toMatch(/wrote \d+ finding/);
    expect((await run(['lint', dir, '--baseline', 'tollgate-baseline.json'], dir)).code).toBe(0);
    // A new problem elsewhere in the file is still reported; the old one stays absorbed even though lines moved.
    const path = join(dir, webXml);
    writeFileSync(
      path,
      readFileSync(path, 'utf8')
        .replace('<web-app', '<!-- moved -->\n<web-app')
        .replace('</web-app>', filter('c2', 'CorsFilter') + '\n</web-app>'),
    );
    const r = await run(['lint', dir, '--baseline', 'tollgate-baseline.json', '-f', 'json'], dir);
    expect(r.code).toBe(1);
    const messages = (JSON.parse(r.out) as { messages: { ruleId: string; line: number }[] }[]).flatMap(
      (x) => x.messages,
    );
    expect(messages.filter((m) => m.ruleId === 'cors-no-allowed-origins')).toHaveLength(1);
  });

  it('exits 2 for a baseline that is not one', async () => {
    const dir = tree({ ...app(''), 'b.json': '{}' });
    expect((await run(['lint', dir, '--baseline', 'b.json'], dir)).code).toBe(2);
  });
});
