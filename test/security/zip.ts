import { deflateRawSync } from 'node:zlib';

/** One entry of a hand-built zip: its bytes, and what the archive claims about them (to build lying archives). */
export interface ZipEntry {
  name: string;
  data: Uint8Array;
  /** 0 stored, 8 deflated (default). */
  method?: 0 | 8;
  /** The uncompressed size the directory claims (default: the real one). */
  claimedSize?: number;
  /** The CRC the directory claims (default: the real one). */
  claimedCrc?: number;
}

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive (a jar) of `entries`, written as the format says: local headers, then the central directory. */
export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const method = e.method ?? 8;
    const body = method === 8 ? deflateRawSync(e.data, { level: 9 }) : Buffer.from(e.data);
    const crc = e.claimedCrc ?? crc32(e.data);
    const size = e.claimedSize ?? e.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt32LE(crc, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(size, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + body.length;
  }
  const cdBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cdBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cdBytes, end]);
}

export const SERVER_INFO = 'org/apache/catalina/util/ServerInfo.properties';

/**
 * catalina.jars built to exhaust a reader (each a few KB): `claims` says its entry inflates to 512 MiB;
 * `ratio` claims 900 KB from about 1 KB (a thousand to one); `lies` claims 100 bytes and inflates to 16 MiB.
 */
export function bombJar(kind: 'claims' | 'ratio' | 'lies'): Buffer {
  if (kind === 'claims') return makeZipRaw(SERVER_INFO, deflateRawSync(Buffer.alloc(1024 * 1024)), 512 * 1024 * 1024);
  if (kind === 'ratio') return makeZipRaw(SERVER_INFO, deflateRawSync(Buffer.alloc(900 * 1024)), 900 * 1024);
  return makeZipRaw(SERVER_INFO, deflateRawSync(Buffer.alloc(16 * 1024 * 1024)), 100);
}

/** A zip of one deflated entry whose compressed bytes are `body` and whose directory claims `size`. */
export function makeZipRaw(name: string, body: Buffer, size: number, crc = 0): Buffer {
  const n = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(body.length, 18);
  local.writeUInt32LE(size, 22);
  local.writeUInt16LE(n.length, 26);
  const cd = Buffer.alloc(46);
  cd.writeUInt32LE(0x02014b50, 0);
  cd.writeUInt16LE(20, 4);
  cd.writeUInt16LE(20, 6);
  cd.writeUInt16LE(8, 10);
  cd.writeUInt32LE(crc, 16);
  cd.writeUInt32LE(body.length, 20);
  cd.writeUInt32LE(size, 24);
  cd.writeUInt16LE(n.length, 28);
  cd.writeUInt32LE(0, 42);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12);
  end.writeUInt32LE(30 + n.length + body.length, 16);
  return Buffer.concat([local, n, body, cd, n, end]);
}
