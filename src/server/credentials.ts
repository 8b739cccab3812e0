/**
 * Stored-password checks compatible with Tomcat's credential handlers and
 * `digest.sh`: MessageDigestCredentialHandler (plain text, hex digests,
 * `salt$iterations$hex`, `{MD5}`/`{SHA}`/`{SSHA}` base64 forms) and
 * SecretKeyCredentialHandler (PBKDF2, `salt$iterations$hexkey`). Every
 * comparison runs in constant time over equal-length buffers.
 */
import { createHash, getHashes, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';

/** Checks a password against what the user store holds. */
export interface CredentialHandler {
  /** Whether `input` (what the client sent) matches `stored`. */
  matches(input: string, stored: string): Promise<boolean>;
  /** The stored form of `input` with a fresh salt, as `digest.sh` prints it. */
  mutate(input: string): Promise<string>;
}

export interface MessageDigestSettings {
  kind: 'message-digest';
  /** Java name (`SHA-256`, `MD5`...); null compares plain text. */
  algorithm: string | null;
  /** Default 1. */
  iterations?: number;
  /** Default 32 bytes. */
  saltLength?: number;
  /** Charset of the password bytes (default UTF-8). */
  encoding?: 'utf-8' | 'latin1';
  /** Digest the password before the salt (RFC 3112), default false. */
  digestInRfc3112Order?: boolean;
}

export interface SecretKeySettings {
  kind: 'secret-key';
  /** `PBKDF2WithHmacSHA1` (default), `...SHA224`, `...SHA256`, `...SHA384`, `...SHA512`. */
  algorithm?: string;
  /** Default 20000. */
  iterations?: number;
  /** Default 32 bytes. */
  saltLength?: number;
  /** Bits, default 160. */
  keyLength?: number;
}

export interface NestedSettings {
  kind: 'nested';
  /** A credential matches when any of these handlers accepts it. */
  handlers: CredentialHandlerSettings[];
}

export type CredentialHandlerSettings = MessageDigestSettings | SecretKeySettings | NestedSettings;

/** Node's digest name for a Java MessageDigest algorithm, or null when unsupported. */
export function nodeDigestName(javaName: string): string | null {
  const upper = javaName.trim().toUpperCase();
  const aliases: Record<string, string> = { SHA: 'sha1', SHA1: 'sha1', 'SHA-1': 'sha1', MD5: 'md5', MD2: 'md2' };
  let name = aliases[upper];
  if (name === undefined) {
    const m = /^SHA-?(224|256|384|512)(?:\/(224|256))?$/.exec(upper) ?? null;
    const m3 = /^SHA3-(224|256|384|512)$/.exec(upper);
    if (m) name = m[2] ? `sha${m[1]}-${m[2]}` : `sha${m[1]}`;
    else if (m3) name = `sha3-${m3[1]}`;
  }
  return name !== undefined && getHashes().includes(name) ? name : null;
}

/** Node's HMAC digest for a Java `PBKDF2WithHmacSHA*` algorithm, or null when unsupported. */
export function pbkdf2DigestName(javaName: string): string | null {
  const m = /^PBKDF2WithHmacSHA(1|224|256|384|512)$/i.exec(javaName.trim());
  return m ? `sha${m[1]}` : null;
}

/** Builds a handler; throws TypeError for an algorithm Node cannot compute (config readers turn that into a diagnostic). */
export function createCredentialHandler(settings: CredentialHandlerSettings): CredentialHandler {
  switch (settings.kind) {
    case 'message-digest':
      return messageDigestHandler(settings);
    case 'secret-key':
      return secretKeyHandler(settings);
    case 'nested': {
      const handlers = settings.handlers.map(createCredentialHandler);
      if (handlers.length === 0) throw new TypeError('a nested credential handler needs at least one handler');
      return {
        async matches(input, stored) {
          // Every handler runs, so the time taken does not say which format the stored value has.
          let ok = false;
          for (const h of handlers) if (await h.matches(input, stored)) ok = true;
          return ok;
        },
        mutate: (input) => handlers[0]!.mutate(input),
      };
    }
  }
}

/** Constant-time equality of two strings of any lengths (both are hashed to equal length first). */
export function constantTimeEquals(a: string | Buffer, b: string | Buffer): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db) && Buffer.byteLength(a) === Buffer.byteLength(b);
}

/** `salt$iterations$hex` split as Tomcat splits it, or null when malformed. */
function splitStored(stored: string): { salt: Buffer; iterations: number; hex: string } | null {
  const a = stored.indexOf('$');
  const b = a < 0 ? -1 : stored.indexOf('$', a + 1);
  if (a < 0 || b < 0) return null;
  const saltHex = stored.slice(0, a);
  const iterText = stored.slice(a + 1, b);
  const hex = stored.slice(b + 1).toLowerCase();
  if (!/^-?\d{1,10}$/.test(iterText) || !/^(?:[0-9a-fA-F]{2})*$/.test(saltHex) || !/^(?:[0-9a-f]{2})*$/.test(hex))
    return null;
  const iterations = Number(iterText);
  if (iterations > 2_147_483_647 || iterations < -2_147_483_648) return null;
  return { salt: Buffer.from(saltHex, 'hex'), iterations, hex };
}

function messageDigestHandler(s: MessageDigestSettings): CredentialHandler {
  const algorithm = s.algorithm === null ? null : nodeDigestName(s.algorithm);
  if (s.algorithm !== null && algorithm === null)
    throw new TypeError(`Unsupported MessageDigest algorithm [${s.algorithm}]`);
  const iterations = s.iterations ?? 1;
  const saltLength = s.saltLength ?? 32;
  const encoding = s.encoding ?? 'utf-8';
  const rfc3112 = s.digestInRfc3112Order ?? false;

  function digest(input: string, salt: Buffer | null, rounds: number): Buffer {
    const bytes = Buffer.from(input, encoding);
    const h = createHash(algorithm!);
    if (salt === null) h.update(bytes);
    else if (rfc3112) h.update(bytes).update(salt);
    else h.update(salt).update(bytes);
    let out = h.digest();
    for (let i = 1; i < rounds; i++) out = createHash(algorithm!).update(out).digest();
    return out;
  }

  return {
    async matches(input, stored) {
      if (algorithm === null) return constantTimeEquals(input, stored);
      if (stored.startsWith('{MD5}') || stored.startsWith('{SHA}')) {
        const mine = createHash(algorithm).update(Buffer.from(input, 'latin1')).digest('base64');
        return constantTimeEquals(mine, stored.slice(5));
      }
      if (stored.startsWith('{SSHA}')) {
        const raw = Buffer.from(stored.slice(6), 'base64');
        if (raw.length < 20) return false;
        const mine = createHash(algorithm).update(Buffer.from(input, 'latin1')).update(raw.subarray(20)).digest();
        return mine.length === 20 && timingSafeEqual(mine, raw.subarray(0, 20));
      }
      if (stored.includes('$')) {
        const parts = splitStored(stored);
        if (parts === null) return false;
        return constantTimeEquals(digest(input, parts.salt, parts.iterations).toString('hex'), parts.hex);
      }
      // Hex digests compare case-insensitively.
      return constantTimeEquals(digest(input, null, 1).toString('hex'), stored.toLowerCase());
    },
    async mutate(input) {
      if (algorithm === null) return input;
      const salt = randomBytes(Math.max(0, saltLength));
      const hex = digest(input, salt, iterations).toString('hex');
      return saltLength === 0 && iterations === 1 ? hex : `${salt.toString('hex')}$${iterations}$${hex}`;
    },
  };
}

function secretKeyHandler(s: SecretKeySettings): CredentialHandler {
  const javaName = s.algorithm ?? 'PBKDF2WithHmacSHA1';
  const digestName = pbkdf2DigestName(javaName);
  if (digestName === null) throw new TypeError(`Unsupported SecretKeyFactory algorithm [${javaName}]`);
  const iterations = s.iterations ?? 20000;
  const saltLength = s.saltLength ?? 32;
  const keyLength = s.keyLength ?? 160;

  function derive(input: string, salt: Buffer, rounds: number, bytes: number): Promise<Buffer | null> {
    // Java's PBEKeySpec refuses an empty salt or a non-positive count; Tomcat then fails the match.
    if (salt.length === 0 || rounds <= 0 || bytes <= 0) return Promise.resolve(null);
    return new Promise((resolve) =>
      pbkdf2(input, salt, rounds, bytes, digestName!, (err, key) => resolve(err ? null : key)),
    );
  }

  return {
    async matches(input, stored) {
      const parts = splitStored(stored);
      if (parts === null) return false;
      const key = await derive(input, parts.salt, parts.iterations, parts.hex.length / 2);
      if (key === null) return false;
      return constantTimeEquals(key.toString('hex'), parts.hex);
    },
    async mutate(input) {
      const salt = randomBytes(Math.max(1, saltLength));
      const key = await derive(input, salt, iterations, Math.ceil(keyLength / 8));
      return `${salt.toString('hex')}$${iterations}$${key === null ? '' : key.toString('hex')}`;
    },
  };
}
