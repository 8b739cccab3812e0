import { describe, expect, it } from 'vitest';
import type { ConfigElement } from '../../src/model/index.js';
import { parseServerXml, parseTomcatUsers } from '../../src/parser/index.js';
import { constantTimeEquals, createCredentialHandler } from '../../src/server/credentials.js';
import { realmFromConfig, UserRealm } from '../../src/server/realm.js';
import { setLogSink } from '../../src/runtime/logging.js';

/** Output of Tomcat 10.1's bin/digest.sh (recorded on the installed Debian tomcat10). */
const DIGEST_SH = {
  sha256: {
    pw: 'pw-sha256',
    stored: '70af84d05a8e5dfa18a2fe8850f7a835$1000$f569bd2fd70de947f4c4ed189e9b37f05237c0f0d08e744c5ba21c06e535f394',
    algorithm: 'SHA-256',
  },
  sha1Plain: { pw: 'pw-sha1', stored: 'c628c38284580e4d2fd6f141b051a325402a6820', algorithm: 'SHA-1' },
  md5Plain: { pw: 'pw-md5', stored: 'ef0c11cf6679e714ea8fb95e0fb05a95', algorithm: 'MD5' },
  sha512: {
    pw: 'pw-sha512',
    stored:
      'cf190087447dbdee$3$1bcc2f49fc51d3c3ba2a1643c3a3cd39b5b30f8d83c1855ab66dc8574c82a3d0640142ffe560cab5fe4b8d0cbb167b051fb207e2fde6a1034d4b20f467de56cc',
    algorithm: 'SHA-512',
  },
  md5Salted: { pw: 'pw-md5-salted', stored: '63c31e61$2$2155e34a161d9bc8b086c48b19b3df06', algorithm: 'MD5' },
  sha256Default: {
    pw: 'pw-sha256-default',
    stored:
      '60dbec5422d52565f1e33bc4f25dc206061786237e29f63a42a1e60a16de54eb$1$fa364df5b624ad0da2a7595339d33db122788e183bdc0814e070c691db6e63b1',
    algorithm: 'SHA-256',
  },
  utf8: {
    pw: 'pässwörd',
    stored: '46970bef70aced8123f0d5d094717e2a5cd412041e03b26376049fe65b2834a4',
    algorithm: 'SHA-256',
  },
  latin1: {
    pw: 'pässwörd',
    stored: '0867ec9e47b8dba41b8b911df1bbbeac602b2e7fb28a90b334502f19e2da471d',
    algorithm: 'SHA-256',
  },
};
const PBKDF2 = {
  sha1: {
    pw: 'pw-pbkdf2-sha1',
    stored: 'a25c645c3644d281$1000$6f2874112187a827c6e5fb6a2e149a3f8d3f998b',
    algorithm: 'PBKDF2WithHmacSHA1',
  },
  sha256: {
    pw: 'pw-pbkdf2-sha256',
    stored: '1697bf5bbff3820d34021d31008aacb2$2000$a409afa491f135288632206a7cba0351b2f55ae56ec78593f2c05a933fa491ea',
    algorithm: 'PBKDF2WithHmacSHA256',
  },
  sha512: {
    pw: 'pw-pbkdf2-sha512',
    stored:
      '7664f246a1bb25d0aaa1855e$1500$3356d6855de5125cd8d0c5d4266987cdae663b66a0b81276df5d17073d2ef7f6b5c07094773a3fa2c43846e421c85a619ced3ff538494c6b200d0d765c9ce6fd',
    algorithm: 'PBKDF2WithHmacSHA512',
  },
  defaults: {
    pw: 'pw-default',
    stored:
      'bd34456ed236f4f67f64e864c5775ac93a9d239c0636a1c54d71e701620c3c7e$20000$ae122186688eef5bf2a4909a5cf35f794abe3836',
    algorithm: 'PBKDF2WithHmacSHA1',
  },
};

describe('credential handlers verify what Tomcat digest.sh produced', () => {
  it.each(Object.entries(DIGEST_SH).filter(([k]) => k !== 'latin1'))('MessageDigest %s', async (_k, v) => {
    const h = createCredentialHandler({ kind: 'message-digest', algorithm: v.algorithm });
    expect(await h.matches(v.pw, v.stored)).toBe(true);
    expect(await h.matches(`${v.pw}x`, v.stored)).toBe(false);
  });

  it('MessageDigest with encoding ISO-8859-1 digests the Latin-1 bytes', async () => {
    const h = createCredentialHandler({ kind: 'message-digest', algorithm: 'SHA-256', encoding: 'latin1' });
    expect(await h.matches(DIGEST_SH.latin1.pw, DIGEST_SH.latin1.stored)).toBe(true);
    expect(await h.matches(DIGEST_SH.utf8.pw, DIGEST_SH.utf8.stored)).toBe(false);
  });

  it('hex digests compare case-insensitively', async () => {
    const h = createCredentialHandler({ kind: 'message-digest', algorithm: 'MD5' });
    expect(await h.matches('pw-md5', DIGEST_SH.md5Plain.stored.toUpperCase())).toBe(true);
  });

  it.each(Object.entries(PBKDF2))('SecretKey %s', async (_k, v) => {
    const h = createCredentialHandler({ kind: 'secret-key', algorithm: v.algorithm });
    expect(await h.matches(v.pw, v.stored)).toBe(true);
    expect(await h.matches(`${v.pw}x`, v.stored)).toBe(false);
  });

  it('a stored value that is not salt$iterations$hex never matches', async () => {
    const sk = createCredentialHandler({ kind: 'secret-key' });
    for (const stored of ['plain', 'zz$10$abcd', 'ab$x$abcd', '$1000$abcd', 'ab$0$abcd'])
      expect(await sk.matches('plain', stored)).toBe(false);
  });

  it('mutate output verifies with the same handler, in digest.sh format', async () => {
    for (const s of [
      { kind: 'message-digest', algorithm: 'SHA-512', iterations: 7, saltLength: 4 },
      { kind: 'secret-key', algorithm: 'PBKDF2WithHmacSHA256', iterations: 100, saltLength: 8, keyLength: 256 },
    ] as const) {
      const h = createCredentialHandler(s);
      const stored = await h.mutate('s3cret');
      expect(stored).toMatch(/^[0-9a-f]+\$\d+\$[0-9a-f]+$/);
      expect(await h.matches('s3cret', stored)).toBe(true);
    }
    expect(
      await createCredentialHandler({ kind: 'message-digest', algorithm: 'MD5', saltLength: 0, iterations: 1 }).mutate(
        'pw-md5',
      ),
    ).toBe(DIGEST_SH.md5Plain.stored);
  });

  it('LDAP-style {SHA} and {SSHA} values are understood', async () => {
    const h = createCredentialHandler({ kind: 'message-digest', algorithm: 'SHA-1' });
    // {SHA} is base64 of SHA-1("secret"); {SSHA} appends the salt "salt".
    expect(await h.matches('secret', '{SHA}5en6G6MezRroT3XKqkdPOmY/BfQ=')).toBe(true);
    const { createHash } = await import('node:crypto');
    const salted = Buffer.concat([
      createHash('sha1').update('secret').update('salt').digest(),
      Buffer.from('salt'),
    ]).toString('base64');
    expect(await h.matches('secret', `{SSHA}${salted}`)).toBe(true);
    expect(await h.matches('wrong', `{SSHA}${salted}`)).toBe(false);
  });

  it('an unknown algorithm is refused when the handler is built', () => {
    expect(() => createCredentialHandler({ kind: 'message-digest', algorithm: 'SHA-999' })).toThrow(TypeError);
    expect(() => createCredentialHandler({ kind: 'secret-key', algorithm: 'PBKDF2WithHmacMD5' })).toThrow(TypeError);
  });

  it('constantTimeEquals is exact for any lengths', () => {
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
    expect(constantTimeEquals('', '')).toBe(true);
  });
});

function realmsOf(engineInner: string): { realms: ConfigElement[] } {
  const xml = `<Server><Service name="Catalina"><Engine name="Catalina" defaultHost="localhost">${engineInner}<Host name="localhost"/></Engine></Service></Server>`;
  const { serverXml } = parseServerXml(xml, '/base/conf/server.xml', {});
  return { realms: serverXml!.services[0]!.engine!.realms };
}

const USERS = parseTomcatUsers(
  `<tomcat-users>
     <user username="plain" password="s3cret" roles="admin-script,other"/>
     <user username="hashed" password="${DIGEST_SH.sha256.stored}" roles="admin-script"/>
     <user username="pbkdf" password="${PBKDF2.sha256.stored}" roles="admin-gui"/>
   </tomcat-users>`,
  '/base/conf/tomcat-users.xml',
).users;

describe('realm from server.xml', () => {
  it('the stock LockOutRealm + UserDatabaseRealm compares plain passwords and gives roles', async () => {
    const { realm, diagnostics } = realmFromConfig(
      USERS,
      realmsOf(
        '<Realm className="org.apache.catalina.realm.LockOutRealm"><Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="UserDatabase"/></Realm>',
      ).realms,
    );
    expect(diagnostics).toEqual([]);
    const p = await realm.authenticate('plain', 's3cret');
    expect(p?.name).toBe('plain');
    expect([...(p?.roles ?? [])]).toEqual(['admin-script', 'other']);
    expect(await realm.authenticate('plain', 'S3cret')).toBeNull();
    expect(await realm.authenticate('PLAIN', 's3cret')).toBeNull();
  });

  it('a MessageDigestCredentialHandler nested in the user database realm checks digests', async () => {
    const { realm } = realmFromConfig(
      USERS,
      realmsOf(
        '<Realm className="org.vendor.container.realm.UserDatabaseRealm"><CredentialHandler className="org.apache.catalina.realm.MessageDigestCredentialHandler" algorithm="SHA-256"/></Realm>',
      ).realms,
    );
    expect(await realm.authenticate('hashed', DIGEST_SH.sha256.pw)).not.toBeNull();
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
  });

  it('a SecretKeyCredentialHandler checks PBKDF2 keys of the stored length', async () => {
    const { realm } = realmFromConfig(
      USERS,
      realmsOf(
        '<Realm className="org.apache.catalina.realm.UserDatabaseRealm"><CredentialHandler className="org.apache.catalina.realm.SecretKeyCredentialHandler" algorithm="PBKDF2WithHmacSHA256" keyLength="256"/></Realm>',
      ).realms,
    );
    expect(await realm.authenticate('pbkdf', PBKDF2.sha256.pw)).not.toBeNull();
  });

  it('a NestedCredentialHandler accepts what any of its handlers accepts', async () => {
    const { realm } = realmFromConfig(
      USERS,
      realmsOf(`<Realm className="org.apache.catalina.realm.UserDatabaseRealm"><CredentialHandler className="org.apache.catalina.realm.NestedCredentialHandler">
        <CredentialHandler className="org.apache.catalina.realm.MessageDigestCredentialHandler" algorithm="SHA-256"/>
        <CredentialHandler className="org.apache.catalina.realm.SecretKeyCredentialHandler" algorithm="PBKDF2WithHmacSHA256"/>
      </CredentialHandler></Realm>`).realms,
    );
    expect(await realm.authenticate('hashed', DIGEST_SH.sha256.pw)).not.toBeNull();
    expect(await realm.authenticate('pbkdf', PBKDF2.sha256.pw)).not.toBeNull();
  });

  it('an unknown digest algorithm is an error diagnostic and every login fails', async () => {
    const { realm, diagnostics } = realmFromConfig(
      USERS,
      realmsOf(
        '<Realm className="org.apache.catalina.realm.UserDatabaseRealm"><CredentialHandler className="org.apache.catalina.realm.MessageDigestCredentialHandler" algorithm="SHA-999"/></Realm>',
      ).realms,
    );
    expect(diagnostics.map((d) => [d.ruleId, d.severity])).toEqual([['credential-handler-invalid', 'error']]);
    expect(diagnostics[0]!.span.line).toBe(1);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
  });

  it('no Realm at all: nobody can log in, as in Tomcat', async () => {
    const { realm } = realmFromConfig(USERS, []);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
  });

  it('an unsupported realm class is a warning and its users cannot log in', async () => {
    const { realm, diagnostics } = realmFromConfig(
      USERS,
      realmsOf('<Realm className="org.apache.catalina.realm.JNDIRealm"/>').realms,
    );
    expect(diagnostics.map((d) => d.ruleId)).toEqual(['realm-unsupported']);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
  });

  it('LockOutRealm attributes set the lockout', async () => {
    let now = 0;
    const { realm } = realmFromConfig(
      USERS,
      realmsOf(
        '<Realm className="org.apache.catalina.realm.LockOutRealm" failureCount="2" lockOutTime="10"><Realm className="org.apache.catalina.realm.UserDatabaseRealm"/></Realm>',
      ).realms,
      { clock: () => now },
    );
    await realm.authenticate('plain', 'bad');
    await realm.authenticate('plain', 'bad');
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
    now += 10_000;
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
  });
});

describe('LockOutRealm semantics', () => {
  function lockedRealm() {
    const clock = { now: 1_000_000 };
    const realm = new UserRealm({ users: USERS, lockout: {}, clock: () => clock.now });
    return { realm, clock };
  }

  it('after 5 failures even the right password fails for 300 seconds, then works', async () => {
    const { realm, clock } = lockedRealm();
    for (let i = 0; i < 4; i++) expect(await realm.authenticate('plain', 'wrong')).toBeNull();
    expect(await realm.isLocked('plain')).toBe(false);
    expect(await realm.authenticate('plain', 'wrong')).toBeNull();
    expect(await realm.isLocked('plain')).toBe(true);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
    clock.now += 299_999;
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
    clock.now += 1;
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
    expect(await realm.isLocked('plain')).toBe(false);
  });

  it('a success before the limit clears the count', async () => {
    const { realm } = lockedRealm();
    for (let i = 0; i < 4; i++) await realm.authenticate('plain', 'wrong');
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
    for (let i = 0; i < 4; i++) await realm.authenticate('plain', 'wrong');
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
  });

  it('a failure while locked extends the lock from that failure', async () => {
    const { realm, clock } = lockedRealm();
    for (let i = 0; i < 5; i++) await realm.authenticate('plain', 'wrong');
    clock.now += 200_000;
    await realm.authenticate('plain', 'wrong');
    clock.now += 200_000;
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
    clock.now += 100_000;
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
  });

  it('unknown users are locked the same way, so lockout does not reveal who exists', async () => {
    const { realm } = lockedRealm();
    for (let i = 0; i < 5; i++) await realm.authenticate('ghost', 'x');
    expect(await realm.isLocked('ghost')).toBe(true);
  });

  it('lockout names are case-insensitive by default', async () => {
    const { realm } = lockedRealm();
    for (let i = 0; i < 5; i++) await realm.authenticate('PLAIN', 'x');
    expect(await realm.isLocked('plain')).toBe(true);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
  });

  it('remembers at most cacheSize users, dropping the least recently failed that hold no lock', async () => {
    const realm = new UserRealm({ users: USERS, lockout: { cacheSize: 3, failureCount: 2 }, clock: () => 0 });
    for (const u of ['a', 'a', 'b', 'c']) await realm.authenticate(u, 'x');
    await realm.authenticate('b', 'x');
    await realm.authenticate('d', 'x');
    // b is locked now; c was the least recently failed record without a lock, so it went.
    expect(await Promise.all(['a', 'b', 'd'].map((u) => realm.isLocked(u)))).toEqual([true, true, false]);
    await realm.authenticate('c', 'x');
    expect(await realm.isLocked('c')).toBe(false);
    // c's return pushed out d, the eldest record without a lock: d's first failure is forgotten.
    await realm.authenticate('d', 'x');
    expect(await realm.isLocked('d')).toBe(false);
    expect(await Promise.all(['a', 'b'].map((u) => realm.isLocked(u)))).toEqual([true, true]);
  });

  it('a locked user stays locked however many other names fail, until the lock expires (unlike Tomcat, whose cache drops it)', async () => {
    let now = 0;
    const realm = new UserRealm({ users: USERS, lockout: {}, clock: () => now });
    for (let i = 0; i < 5; i++) await realm.authenticate('plain', `guess-${i}`);
    for (let i = 0; i < 1001; i++) await realm.authenticate(`flood-${i}`, null);
    expect(await realm.isLocked('plain')).toBe(true);
    expect(await realm.authenticate('plain', 's3cret')).toBeNull();
    // Once the lock has expired, the record is an ordinary one that the flood may push out.
    now = 301_000;
    for (let i = 0; i < 1001; i++) await realm.authenticate(`flood2-${i}`, null);
    expect(await realm.isLocked('plain')).toBe(false);
    expect(await realm.authenticate('plain', 's3cret')).not.toBeNull();
  });

  it('a failure without a password costs a real credential check, so failures cannot be sprayed cheaply', async () => {
    const inner = createCredentialHandler({ kind: 'message-digest', algorithm: null });
    let checks = 0;
    const counting = {
      mutate: (p: string) => inner.mutate(p),
      matches: async (p: string, s: string) => (checks++, inner.matches(p, s)),
    };
    const realm = new UserRealm({ users: USERS, lockout: {}, credentialHandler: counting });
    await realm.authenticate('plain', null);
    await realm.authenticate('nobody', null);
    await realm.authenticate('nobody', 'x');
    await realm.authenticate('plain', 'wrong');
    expect(checks).toBe(4);
  });

  it('logs the eviction of a recent failure once, and the rest of a burst as one line with its count', async () => {
    const lines: string[] = [];
    setLogSink((r) => lines.push(r.message));
    try {
      const realm = new UserRealm({ users: USERS, lockout: { cacheSize: 2 }, clock: () => 0 });
      for (let i = 0; i < 50; i++) await realm.authenticate(`name-${i}`, 'x');
      expect(lines).toEqual([
        'User [name-0] was removed from the failed users cache after [0] seconds to keep the cache size within the limit set',
      ]);
    } finally {
      setLogSink(null);
    }
  });

  it('a missing password never authenticates and counts as a failure, as in LockOutRealm', async () => {
    const { realm } = lockedRealm();
    for (let i = 0; i < 5; i++) expect(await realm.authenticate('plain', null)).toBeNull();
    expect(await realm.isLocked('plain')).toBe(true);
    expect(await realm.authenticate(null, 's3cret')).toBeNull();
  });
});
