/** The systemd unit of docs/deployment.md passes `systemd-analyze verify` (Debian package systemd). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'deployment.md'), 'utf8');

describe('the systemd unit in docs/deployment.md', () => {
  it('runs node directly with reload, restart, a user and sandboxing, and systemd-analyze verify accepts it', () => {
    const unit = /<!-- systemd-unit -->\n```ini\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(unit, 'docs/deployment.md has no <!-- systemd-unit --> ini block').toBeDefined();
    for (const line of [
      /^ExecStart=\/usr\/bin\/node /m,
      /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m,
      /^Type=exec$/m,
      /^User=\S+$/m,
      /^Restart=on-failure$/m,
      /^NoNewPrivileges=true$/m,
      /^ProtectSystem=strict$/m,
      // The rest of Debian's tomcat10.service sandboxing (/lib/systemd/system/tomcat10.service).
      /^PrivateTmp=(true|yes)$/m,
      /^ReadWritePaths=\S+/m,
      /^Group=\S+$/m,
    ])
      expect(unit).toMatch(line);
    expect(unit).not.toMatch(/npx/);
    const probe = spawnSync('systemd-analyze', ['--version']);
    if (probe.error) throw new Error('systemd-analyze is missing: install the Debian package systemd');
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-unit-'));
    try {
      writeFileSync(join(dir, 'tollgate.service'), unit!);
      const r = spawnSync('systemd-analyze', ['verify', join(dir, 'tollgate.service')], { encoding: 'utf8' });
      expect(r.stderr + r.stdout).toBe('');
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
