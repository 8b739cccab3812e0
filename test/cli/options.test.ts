import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands, main } from '../../src/cli/index.js';

const repo = join(import.meta.dirname, '..', '..');
const example = join(repo, 'examples', 'base');
const cwd = mkdtempSync(join(tmpdir(), 'tollgate-cli-options-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd });
  return { code, out, err };
}

/** What each command needs to get past its required arguments, so the option under test is what fails. */
const required: Record<string, string[]> = {
  lint: [example],
  audit: [example, '--benchmark', 'stig-tomcat'],
  chain: ['--base', example],
  compile: ['--base', example, '--out', 'out'],
  serve: ['--base', example],
  schema: [],
  convert: [join(example, 'webapps', 'api', 'WEB-INF', 'web.xml')],
};

const bad: [string, string[], RegExp][] = [
  ['lint', ['--target', '11'], /Argument: target, Given: "11", Choices: "9.0", "10.1", "11.0"/],
  ['lint', ['--format', 'xml'], /Argument: format, Given: "xml"/],
  ['lint', ['-f', 'xml'], /Argument: format, Given: "xml"/],
  ['lint', ['--max-warnings', 'abc'], /--max-warnings "abc": write a whole number/],
  ['lint', ['--max-warnings', '1.5'], /--max-warnings "1.5"/],
  ['lint', ['--max-warnings'], /Not enough arguments following: max-warnings/],
  ['lint', ['--rule', 'no-such-rule:off'], /there is no rule "no-such-rule"/],
  ['lint', ['--rule', 'cors-any-origin:loud'], /write <rule-id>:off\|info\|warn\|error/],
  ['lint', ['--workers', 'many'], /--workers "many"/],
  ['lint', ['--profile', 'nist'], /Argument: profile, Given: "nist"/],
  ['lint', ['--baseline', 'a.json', '--baseline-write', 'b.json'], /mutually exclusive/],
  ['chain', ['--dispatcher', 'NOPE'], /Argument: dispatcher, Given: "NOPE"/],
  ['chain', ['--format', 'xml'], /Argument: format, Given: "xml"/],
  ['chain', ['--path'], /Not enough arguments following: path/],
  ['compile', ['--target', '10'], /Argument: target, Given: "10"/],
  ['compile', ['--out', 'again'], /--out is given 2 times/],
  ['serve', ['--prot', '9000'], /unknown option --prot\b/],
  ['serve', ['--port', '70000'], /--port "70000": write a whole number from 0 to 65535/],
  ['serve', ['--port', 'http'], /--port "http"/],
  ['serve', ['--target', '8.5'], /Argument: target, Given: "8.5"/],
  ['serve', ['--stor', 'redis://127.0.0.1:6379'], /unknown option --stor\b/],
  [
    'serve',
    ['--store', 'mongodb://127.0.0.1:27017'],
    /"mongodb:\/\/127\.0\.0\.1:27017": write memory, redis or a redis:\/\/host:port URL/,
  ],
  ['serve', ['--store', 'redis://127.0.0.1:6379/db'], /the path must be a database number/],
  ['serve', ['--store'], /Not enough arguments following: store/],
  ['schema', ['--out'], /Not enough arguments following: out/],
  ['schema', ['extra'], /unexpected argument extra\b/],
  ['lint', ['--bogus-flag=1', '-z'], /unknown options --bogus-flag, -z \(/],
  ['convert', ['--out'], /Not enough arguments following: out/],
];

describe('every option is validated before a command does anything', () => {
  it.each(bad)(
    '%s %j exits 2 with one line naming the problem, having written nothing',
    async (command, args, message) => {
      const r = await run([command, ...required[command]!, ...args]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(new RegExp(`^tollgate ${command}: `));
      expect(r.err).toMatch(message);
      expect(readdirSync(cwd)).toEqual([]);
    },
  );

  it('compile without --out refuses, instead of writing into a folder named "undefined"', async () => {
    const r = await run(['compile', '--base', example]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Missing required argument: out/);
    expect(existsSync(join(cwd, 'undefined'))).toBe(false);
  });

  it('every command rejects an unknown option the same way', async () => {
    for (const c of commands) {
      const name = c.name.split(' ')[0]!;
      // A command added without a row above still has to refuse (its required arguments may be named first).
      const r = await run([name, ...(required[name] ?? []), '--bogus-option=x']);
      expect(r.code, name).toBe(2);
      expect(r.out, name).toBe('');
      expect(r.err, name).toMatch(new RegExp(`^tollgate ${name}: `));
      if (required[name]) expect(r.err, name).toMatch(/unknown option --bogus-option \(/);
    }
  });
});

describe('values that are right', () => {
  it.each(['9.0', '10.1', '11.0'])('--target %s is accepted', async (target) => {
    const r = await run(['lint', example, '--target', target]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('--dispatcher is read in any case', async () => {
    const r = await run(['chain', '--base', example, '--path', '/api/', '--dispatcher', 'forward']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('(FORWARD)');
  });

  it('--version prints the package version', async () => {
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
