/**
 * IP addresses and CIDR masks with Tomcat's rules (NetMask, RemoteCIDRFilter)
 * and Java's textual forms. Parsing happens at compile time; the per-request
 * part is compileCidrMatcher and toTomcatRemoteAddr.
 */
export type IpFamily = 4 | 6;

/** A JSON-serialisable CIDR (it goes into generated config literals). */
export interface Cidr {
  family: IpFamily;
  bytes: number[];
  prefix: number;
  text: string;
}

/**
 * A dotted quad as Java's InetAddress literal parser accepts it here: four
 * decimal parts 0-255 without leading zeros. Hand-written because it runs on
 * every request (RemoteCIDRFilter, the remote address): no regex, no match array.
 */
function parseIpv4(text: string): Uint8Array | null {
  const n = text.length;
  if (n < 7 || n > 15) return null;
  const out = new Uint8Array(4);
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= n; i++) {
    const c = i === n ? 46 : text.charCodeAt(i);
    if (c === 46) {
      // An empty part, a leading zero ("01") or a fifth part is refused.
      if (digits === 0 || part > 3 || (digits > 1 && text.charCodeAt(i - digits) === 48)) return null;
      out[part++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      if (++digits > 3 || value > 255) return null;
    } else {
      return null;
    }
  }
  return part === 4 ? out : null;
}

function parseIpv6(input: string): Uint8Array | null {
  let text = input;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;
  let tail: Uint8Array | null = null;
  const lastColon = text.lastIndexOf(':');
  if (text.indexOf('.', lastColon) > 0) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (!tail) return null;
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string): number[] | null => {
    if (s === '') return [];
    const groups = s.split(':');
    const out: number[] = [];
    for (const g of groups) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tail) bytes.set(tail, 12);
  return bytes;
}

/** Parses an IPv4 dotted quad or an IPv6 address (full, condensed, with embedded IPv4, brackets or zone); null otherwise. */
export function parseIp(text: string): Uint8Array | null {
  return parseIpv4(text) ?? parseIpv6(text);
}

/** Java's InetAddress.getHostAddress() form: IPv6 uncompressed, lower-case, no leading zeros (0:0:0:0:0:0:0:1). */
export function formatIpJava(bytes: Uint8Array): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (isV4Mapped(bytes)) return `${bytes[12]}.${bytes[13]}.${bytes[14]}.${bytes[15]}`;
  const parts: string[] = [];
  for (let i = 0; i < 16; i += 2) parts.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return parts.join(':');
}

function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/**
 * A mask as Tomcat's NetMask accepts it: "address" or "address/prefix" with a
 * decimal prefix. Dotted netmasks, truncated addresses and host names are refused.
 */
export function parseCidr(text: string): { ok: true; cidr: Cidr } | { ok: false; error: string } {
  const slash = text.indexOf('/');
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const bytes = parseIp(addrText);
  if (!bytes) {
    const hint = /^\d+(\.\d+){0,2}$/.test(addrText)
      ? ' (a truncated address: write all four parts, e.g. 10.0.0.0/8)'
      : /^[a-z]/i.test(addrText) && !addrText.includes(':')
        ? ' (host names are not supported)'
        : '';
    return { ok: false, error: `"${addrText}" is not an IPv4 or IPv6 address${hint}` };
  }
  const family: IpFamily = bytes.length === 4 ? 4 : 6;
  const max = family === 4 ? 32 : 128;
  let prefix = max;
  if (slash >= 0) {
    const p = text.slice(slash + 1);
    if (!/^\d+$/.test(p)) {
      return {
        ok: false,
        error: p.includes('.')
          ? `"/${p}" is a dotted netmask; write the prefix length instead (e.g. /16)`
          : `"/${p}" is not a prefix length`,
      };
    }
    prefix = Number(p);
    if (prefix > max)
      return { ok: false, error: `prefix /${prefix} is larger than ${max} for an IPv${family} address` };
  }
  return { ok: true, cidr: { family, bytes: [...bytes], prefix, text } };
}

/** Parses RemoteCIDRFilter's comma-separated list; every bad entry is reported with its offset in the text. */
export function parseCidrList(text: string): {
  cidrs: Cidr[];
  errors: { entry: string; offset: number; error: string }[];
} {
  const cidrs: Cidr[] = [];
  const errors: { entry: string; offset: number; error: string }[] = [];
  let offset = 0;
  for (const raw of text.split(',')) {
    const lead = raw.length - raw.trimStart().length;
    const entry = raw.trim();
    if (entry !== '') {
      const r = parseCidr(entry);
      if (r.ok) cidrs.push(r.cidr);
      else errors.push({ entry, offset: offset + lead, error: r.error });
    }
    offset += raw.length + 1;
  }
  return { cidrs, errors };
}

/** A matcher over precompiled masks. Like NetMask, an IPv4 mask never matches an IPv6 address and vice versa. */
export function compileCidrMatcher(cidrs: readonly Cidr[]): (address: string) => boolean {
  const masks = cidrs.map((c) => ({ bytes: Uint8Array.from(c.bytes), prefix: c.prefix, family: c.family }));
  return (address: string): boolean => {
    const ip = parseIp(address);
    if (!ip) return false;
    const family = ip.length === 4 ? 4 : 6;
    for (const m of masks) {
      if (m.family !== family) continue;
      if (prefixEquals(m.bytes, ip, m.prefix)) return true;
    }
    return false;
  };
}

function prefixEquals(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  const whole = bits >> 3;
  for (let i = 0; i < whole; i++) if (a[i] !== b[i]) return false;
  const rest = bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (a[whole]! & mask) === (b[whole]! & mask);
}

/** What Tomcat's getRemoteAddr() returns for a Node socket address ('::1' -> '0:0:0:0:0:0:0:1', '::ffff:1.2.3.4' -> '1.2.3.4'). */
export function toTomcatRemoteAddr(nodeAddress: string): string {
  if (!nodeAddress.includes(':')) return nodeAddress;
  const ip = parseIp(nodeAddress);
  return ip ? formatIpJava(ip) : nodeAddress;
}
