import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fileScope,
  isDirInScope,
  listInScope,
  placeOf,
  readArchiveEntry,
  readInScope,
  type ReadResult,
} from '../../src/parser/files.js';
import { bombJar, makeZip, makeZipRaw, SERVER_INFO } from '../security/zip.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'tollgate-files-'));
  dirs.push(d);
  return d;
}

const text = (r: ReadResult): string => ('bytes' in r ? Buffer.from(r.bytes).toString('utf8') : '');
const why = (r: ReadResult): string => ('diagnostic' in r ? r.diagnostic.message : 'absent' in r ? 'absent' : 'read');

describe('the file-access layer keeps reads inside the base (docs/security.md)', () => {
  const outside = temp();
  writeFileSync(join(outside, 'secret.txt'), 'CANARY-outside');
  const base = temp();
  mkdirSync(join(base, 'conf'));
  writeFileSync(join(base, 'conf', 'server.xml'), '<Server/>');
  symlinkSync(join(outside, 'secret.txt'), join(base, 'conf', 'out.xml'));
  symlinkSync(outside, join(base, 'outdir'));
  symlinkSync('/proc/self/environ', join(base, 'conf', 'env.xml'));
  symlinkSync('/dev/zero', join(base, 'conf', 'zero.xml'));
  symlinkSync(join(base, 'conf', 'server.xml'), join(base, 'conf', 'inside.xml'));
  symlinkSync(join(base, 'conf', 'loop-b'), join(base, 'conf', 'loop-a'));
  symlinkSync(join(base, 'conf', 'loop-a'), join(base, 'conf', 'loop-b'));
  execFileSync('mkfifo', [join(base, 'conf', 'fifo.xml')]);
  const scope = fileScope([base]);

  it('reads a regular file and a link that stays inside', () => {
    expect(text(readInScope(join(base, 'conf', 'server.xml'), scope))).toBe('<Server/>');
    expect(text(readInScope(join(base, 'conf', 'inside.xml'), scope))).toBe('<Server/>');
  });

  it('refuses a link out of the base, saying where it leads and how to allow it', () => {
    const r = readInScope(join(base, 'conf', 'out.xml'), scope);
    expect(why(r)).toMatch(/symbolic link leading to .*secret\.txt, outside the base.*--follow-symlinks/);
    expect(why(readInScope(join(base, 'outdir', 'secret.txt'), scope))).toMatch(/outside the base/);
    expect(isDirInScope(join(base, 'outdir'), scope)).toBe(false);
    expect(listInScope(join(base, 'outdir'), scope)).toEqual([]);
  });

  it('refuses a path a configuration value names outside the base', () => {
    expect(why(readInScope(join(outside, 'secret.txt'), scope))).toMatch(/lies outside the base/);
  });

  it('never reads /proc, /sys or /dev, even with --follow-symlinks', () => {
    const follow = fileScope([base], { followSymlinks: true });
    expect(text(readInScope(join(base, 'conf', 'out.xml'), follow))).toBe('CANARY-outside');
    for (const s of [scope, follow]) {
      expect(why(readInScope(join(base, 'conf', 'env.xml'), s))).toMatch(/kernel or device file/);
      expect(why(readInScope(join(base, 'conf', 'zero.xml'), s))).toMatch(/kernel or device file/);
      expect(why(readInScope('/proc/self/environ', s))).toMatch(/kernel or device file/);
    }
  });

  it('refuses a FIFO without waiting for a writer, and a loop of links', () => {
    expect(why(readInScope(join(base, 'conf', 'fifo.xml'), scope))).toMatch(/not a regular file/);
    expect(why(readInScope(join(base, 'conf', 'loop-a'), scope))).toMatch(/loop of symbolic links/);
  });

  it('caps each file and the run', () => {
    writeFileSync(join(base, 'big.xml'), 'x'.repeat(5000));
    expect(why(readInScope(join(base, 'big.xml'), fileScope([base], { maxFileBytes: 4096 })))).toMatch(
      /over 0\.0 MiB|MiB/,
    );
    const small = fileScope([base], { maxTotalBytes: 6000 });
    expect('bytes' in readInScope(join(base, 'big.xml'), small)).toBe(true);
    expect(why(readInScope(join(base, 'big.xml'), small))).toMatch(/tollgate reads at most/);
  });

  it('says absent for what is not there', () => {
    expect(placeOf(join(base, 'nothing.xml'), scope)).toEqual({ absent: true });
  });
});

describe('archives are read with limits', () => {
  const base = temp();
  const scope = () => fileScope([base]);
  const jar = (name: string, bytes: Buffer): string => {
    writeFileSync(join(base, name), bytes);
    return join(base, name);
  };
  const props = Buffer.from('server.info=Apache Tomcat/10.1.60\n');

  it('reads only the entry asked for, deflated or stored', () => {
    const j = jar(
      'good.jar',
      makeZip([
        { name: 'a/b.class', data: Buffer.alloc(10) },
        { name: SERVER_INFO, data: props },
      ]),
    );
    expect(text(readArchiveEntry(j, SERVER_INFO, scope()))).toBe(props.toString());
    const s = jar('stored.jar', makeZip([{ name: SERVER_INFO, data: props, method: 0 }]));
    expect(text(readArchiveEntry(s, SERVER_INFO, scope()))).toBe(props.toString());
    expect(readArchiveEntry(j, 'no/such/entry', scope())).toEqual({ absent: true });
  });

  it('refuses zip bombs before or while inflating, and counts what it inflates', () => {
    expect(why(readArchiveEntry(jar('claims.jar', bombJar('claims')), SERVER_INFO, scope(), 1024 * 1024))).toMatch(
      /says it inflates to 512\.0 MiB/,
    );
    expect(why(readArchiveEntry(jar('ratio.jar', bombJar('ratio')), SERVER_INFO, scope(), 1024 * 1024))).toMatch(
      /zip bomb/,
    );
    expect(why(readArchiveEntry(jar('lies.jar', bombJar('lies')), SERVER_INFO, scope(), 1024 * 1024))).toMatch(
      /inflates past the 100 bytes it declares/,
    );
  });

  it('reports a damaged or foreign archive as a finding, never an exception', () => {
    const cases: [string, Buffer, RegExp][] = [
      ['garbage.jar', Buffer.from('this is not a zip at all'), /not a zip archive/],
      ['empty.jar', Buffer.alloc(0), /not a zip archive/],
      [
        'truncated.jar',
        makeZip([{ name: SERVER_INFO, data: props }]).subarray(10),
        /damaged|outside the archive|past the end/,
      ],
      ['badcrc.jar', makeZip([{ name: SERVER_INFO, data: props, claimedCrc: 1 }]), /CRC/],
      ['notdeflate.jar', makeZipRaw(SERVER_INFO, Buffer.from([0xff, 0xff, 0xff]), 10), /does not inflate/],
    ];
    for (const [name, bytes, re] of cases)
      expect(why(readArchiveEntry(jar(name, bytes), SERVER_INFO, scope()))).toMatch(re);
  });

  it('goes through the same scope as any file: a jar linked to /dev/zero is refused', () => {
    symlinkSync('/dev/zero', join(base, 'zero.jar'));
    expect(why(readArchiveEntry(join(base, 'zero.jar'), SERVER_INFO, scope()))).toMatch(/kernel or device file/);
  });
});
