import * as z from 'zod';
import { parseCidr, type Cidr } from '../protocol/net.js';
import { defineFilter, param, refuse, type Note } from './define.js';
import { reader } from './values.js';
import { javaTrim, parseJavaInteger, splitCommaSeparated, type Piece } from './java-text.js';
import { translateJavaRegex } from './java-regex.js';
import type { ParamNote } from './spec.js';

/**
 * InetAddress.getByName's numeric IPv4 forms: "a.b.c.d", and the legacy
 * "a.b.c", "a.b" and "a" where the last part fills the remaining bytes
 * (10.1 is 10.0.0.1). Parts are decimal even with leading zeros.
 */
export function javaIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((p) => !/^\d+$/.test(p))) return null;
  const nums = parts.map(Number);
  const last = nums[nums.length - 1]!;
  if (nums.slice(0, -1).some((n) => n > 255) || last >= 2 ** (8 * (5 - nums.length))) return null;
  const bytes = nums.slice(0, -1);
  for (let i = 4 - nums.length; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes;
}

interface Entry {
  cidr: Cidr | null;
  notes: Note[];
}

/** One NetMask entry ("address", "address/prefix", optionally ";port-regex"); `fail` gets Tomcat's refusals. */
function readEntry(
  piece: Piece,
  fail: (message: string, offset: number, length: number, severity?: 'warning') => void,
): Entry {
  const { text, offset } = piece;
  const notes: Note[] = [];
  if (text === '') {
    // InetAddress.getByName("") is the loopback address, so an empty entry matches 127.0.0.1.
    notes.push({
      ruleId: 'filter-param-cidr',
      severity: 'error',
      message: 'an empty entry is read by Java as the loopback address 127.0.0.1. Remove the extra comma',
      offset: Math.max(0, offset - 1),
      length: 1,
    });
    return { cidr: { family: 4, bytes: [127, 0, 0, 1], prefix: 32, text }, notes };
  }
  let body = text;
  const semi = text.indexOf(';');
  if (semi >= 0) {
    body = text.slice(0, semi);
    const port = translateJavaRegex(text.slice(semi + 1)).problems.find((p) => p.code === 'java-syntax');
    if (port)
      fail(
        `the port pattern after ";" is not a valid Java regex (${port.message})`,
        offset + semi + 1,
        text.length - semi - 1,
      );
    else
      notes.push({
        ruleId: 'filter-param-no-effect',
        severity: 'error',
        message: `"${text}" has a port pattern: RemoteCIDRFilter compares addresses only, so this entry never matches`,
        offset,
        length: text.length,
      });
  }
  const slash = body.indexOf('/');
  const addrText = slash < 0 ? body : body.slice(0, slash);
  let normalized = addrText;
  const legacy = /^[\d.]+$/.test(addrText) ? javaIpv4(addrText) : null;
  if (legacy) {
    normalized = legacy.join('.');
    if (normalized !== addrText) {
      notes.push({
        ruleId: 'filter-param-cidr',
        severity: 'error',
        message: `Java reads "${addrText}" as ${normalized}${slash >= 0 ? `, so this mask is ${normalized}${body.slice(slash)}` : ''}. Write the address in full`,
        offset,
        length: addrText.length,
      });
    }
  } else if (/^[A-Za-z0-9.-]+$/.test(addrText) && /[A-Za-z]/.test(addrText)) {
    fail(
      `"${addrText}" is a host name: Tomcat looks it up in DNS when the application starts (and fails to start when it does not resolve); tollgate does not resolve names. Write the address`,
      offset,
      addrText.length,
      'warning',
    );
    return { cidr: null, notes };
  }
  let prefixText = '';
  if (slash >= 0) {
    const p = parseJavaInteger(body.slice(slash + 1));
    if (p === null) {
      const given = body.slice(slash + 1);
      fail(
        given.includes('.')
          ? `"/${given}" is a dotted netmask; NetMask wants a prefix length (e.g. /16)`
          : `"/${given}" is not a prefix length`,
        offset + slash,
        body.length - slash,
      );
      return { cidr: null, notes };
    }
    if (p < 0) {
      fail(`the prefix length /${p} is negative`, offset + slash, body.length - slash);
      return { cidr: null, notes };
    }
    prefixText = `/${p}`;
  }
  const r = parseCidr(normalized + prefixText);
  if (!r.ok) {
    fail(r.error, offset, body.length);
    return { cidr: null, notes };
  }
  let cidr: Cidr = { ...r.cidr, text };
  // Java turns an IPv4-mapped IPv6 address into the IPv4 address itself.
  if (
    cidr.family === 6 &&
    cidr.bytes.slice(0, 10).every((b) => b === 0) &&
    cidr.bytes[10] === 0xff &&
    cidr.bytes[11] === 0xff
  ) {
    const prefix = slash >= 0 ? cidr.prefix : 32;
    if (prefix > 32) {
      fail(
        `"${addrText}" is an IPv4 address to Java (IPv4-mapped), so the prefix /${prefix} is larger than 32`,
        offset + slash,
        body.length - slash,
      );
      return { cidr: null, notes };
    }
    cidr = { family: 4, bytes: cidr.bytes.slice(12), prefix, text };
  }
  return semi >= 0 ? { cidr: null, notes } : { cidr, notes };
}

/** Reads a whole allow/deny list (StringUtils.splitCommaSeparated, each entry a NetMask). */
function readList(
  value: string | string[],
  fail: (message: string, offset: number, length: number, severity?: 'warning') => void,
): Entry[] {
  const pieces: Piece[] =
    typeof value === 'string' ? splitCommaSeparated(value) : value.map((t) => ({ text: javaTrim(t), offset: 0 }));
  return pieces.map((p) => readEntry(p, fail));
}

function cidrList(description: string) {
  return reader(
    z.union([z.array(z.string()).meta({ title: 'JSON list' }), z.string().meta({ title: 'web.xml text' })]),
    { description, examples: ['127.0.0.1, ::1', '10.0.0.0/8, 192.168.0.0/16, fd00::/8'] },
    (v, ctx) =>
      readList(v, (message, offset, length, severity) =>
        refuse(ctx, message, { ruleId: 'filter-param-cidr', offset, length, ...(severity ? { severity } : {}) }),
      ).flatMap((e) => (e.cidr ? [e.cidr] : [])),
    (): Cidr[] => [],
    (v: unknown): Note[] =>
      typeof v === 'string' || Array.isArray(v)
        ? readList(v as string | string[], () => undefined).flatMap((e) => e.notes)
        : [],
  );
}

export const spec = defineFilter({
  id: 'remote-cidr',
  simpleName: 'RemoteCIDRFilter',
  description:
    'Allows or denies requests by client IP address against CIDR masks (IPv4 and IPv6). Deny is checked first; with neither allow nor deny every request is refused with 403.',
  configProblemsAreFatal: true,
  names: 'bean',
  params: {
    allow: param(
      'cidr-list',
      cidrList('Comma-separated masks (address/prefix) or single addresses; when set, the address must match one.'),
    ),
    deny: param(
      'cidr-list',
      cidrList('Comma-separated masks (address/prefix) or single addresses; a matching address is refused.'),
    ),
  },
  toConfig: (v) => ({ allow: v.allow, deny: v.deny, denyStatus: 403 }),
  notes: (raw): ParamNote[] => {
    const empty = (name: string) => {
      const x = raw[name];
      return (
        x === undefined ||
        (Array.isArray(x) ? x.length === 0 : typeof x === 'string' && splitCommaSeparated(x).length === 0)
      );
    };
    if (!empty('allow') || !empty('deny')) return [];
    return [
      {
        param: 'allow',
        on: 'name',
        ruleId: 'filter-denies-everything',
        severity: 'error',
        message:
          'RemoteCIDRFilter has neither allow nor deny: Tomcat then refuses every request with 403. Set allow (or deny)',
      },
    ];
  },
});
export type RemoteCidrConfig = z.output<typeof spec.schema>;
