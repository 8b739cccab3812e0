/**
 * The repository's Dockerfile, checked without a Docker daemon (none runs here: docs/deployment.md):
 * dockerfile-utils (the linter behind the Docker VS Code extension and language server) finds nothing
 * in it, and its instructions, read with dockerfile-ast, run node directly as a user that is not root,
 * with a HEALTHCHECK asking the operations listener's liveness path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';

const text = readFileSync(join(import.meta.dirname, '..', '..', 'Dockerfile'), 'utf8');
const instructions = DockerfileParser.parse(text).getInstructions();
/** The instructions of the last stage (the image that runs). */
const lastFrom = instructions.map((i) => i.getKeyword()).lastIndexOf('FROM');
const final = instructions.slice(lastFrom);
const args = (keyword: string): string[] =>
  final.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');

describe('Dockerfile', () => {
  it('dockerfile-utils finds no problem, and finds them in a broken one', () => {
    expect(validate(text)).toEqual([]);
    // The linter is not silent on everything: a HEALTHCHECK without its command is an error.
    expect(validate('FROM node:20-bookworm-slim\nHEALTHCHECK CMD\n').map((d) => d.message)).toEqual([
      'Missing command after HEALTHCHECK CMD',
    ]);
  });

  it('the image runs as a user that is not root', () => {
    const users = args('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
  });

  it('runs node itself (no npx, npm or shell between the signals and serve)', () => {
    const entry = args('ENTRYPOINT');
    expect(entry).toHaveLength(1);
    const argv = JSON.parse(entry[0]!) as string[];
    expect(argv[0]).toBe('node');
    expect(argv[1]).toMatch(/bin\/tollgate\.js$/);
    const cmd = JSON.parse(args('CMD')[0]!) as string[];
    expect(cmd[0]).toBe('serve');
    expect(text).not.toMatch(/^\s*(ENTRYPOINT|CMD)\s.*\bnpx?\b/m);
  });

  it('a HEALTHCHECK asks the operations listener it starts (--ops-port) for /live', () => {
    const health = args('HEALTHCHECK');
    expect(health).toHaveLength(1);
    const cmd = JSON.parse(args('CMD')[0]!) as string[];
    const opsPort = cmd[cmd.indexOf('--ops-port') + 1];
    expect(opsPort).toMatch(/^\d+$/);
    expect(health[0]).toContain(`http://127.0.0.1:${opsPort}/live`);
    expect(args('STOPSIGNAL')).toEqual(['SIGTERM']);
  });
});
