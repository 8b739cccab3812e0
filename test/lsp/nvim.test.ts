/**
 * The Neovim setup of docs/editors.md, run headless: Debian's nvim (installed by .ci/run) attaches
 * `tollgate lsp` to a web.xml and shows its findings as Neovim diagnostics.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');

function nvim(): string {
  try {
    execFileSync('nvim', ['--version'], { stdio: 'ignore' });
    return 'nvim';
  } catch {
    throw new Error(
      'nvim is not installed: apt-get install neovim (.ci/run does) to run the editor test of docs/editors.md',
    );
  }
}

describe('Neovim (headless) with tollgate lsp', () => {
  it('shows the findings of a web.xml as diagnostics at their lines', () => {
    const base = mkdtempSync(join(tmpdir(), 'tg-nvim-'));
    try {
      const file = join(base, 'webapps', 'app', 'WEB-INF', 'web.xml');
      mkdirSync(join(base, 'webapps', 'app', 'WEB-INF'), { recursive: true });
      writeFileSync(
        file,
        `<?xml version="1.0" encoding="UTF-8"?>
<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
  <filter>
    <filter-name>cors</filter-name>
    <filter-class>org.apache.catalina.filters.CorsFilter</filter-class>
    <init-param><param-name>cors.allowed.origin</param-name><param-value>https://app.example.com</param-value></init-param>
  </filter>
  <filter-mapping><filter-name>cors</filter-name><url-pattern>/*</url-pattern></filter-mapping>
</web-app>
`,
      );
      const out = join(base, 'diagnostics.txt');
      const r = spawnSync(nvim(), ['--headless', '--clean', '-u', join(import.meta.dirname, 'nvim-attach.lua')], {
        env: {
          ...process.env,
          TG_FILE: file,
          TG_OUT: out,
          TG_ROOT: base,
          TG_NODE: process.execPath,
          TG_BIN: join(repo, 'bin', 'tollgate.js'),
        },
        timeout: 240_000,
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      const lines = readFileSync(out, 'utf8').trim().split('\n');
      // Neovim counts lines from 0 and severities 1 (error) to 4 (hint), as LSP does.
      expect(lines).toContain('5:28 filter-param-unknown 2');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
