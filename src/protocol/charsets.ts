import { JAVA_CHARSETS } from './java-charsets.js';

/** A charset as Java knows it, with the Node decoder that reads the same bytes (null when Node has none). */
export interface JavaCharset {
  /** Java's canonical name (`UTF-8`, `ISO-8859-1`, `windows-1252`). */
  name: string;
  /** A Buffer encoding (`utf8`, `latin1`) or a WHATWG TextDecoder label (`windows-1252`); null when Node cannot decode it. */
  decoder: string | null;
}

const BY_NAME = new Map<string, JavaCharset>();
for (const [name, decoder, ...aliases] of JAVA_CHARSETS) {
  const cs: JavaCharset = { name, decoder };
  for (const n of [name, ...aliases]) BY_NAME.set(n.toLowerCase(), cs);
}

/** Charset.forName as a lookup: names and aliases match case-insensitively, nothing else is normalised. */
export function javaCharset(name: string): JavaCharset | null {
  return BY_NAME.get(name.toLowerCase()) ?? null;
}

/** Names Java refuses outright (IllegalCharsetNameException): they must start with a letter or digit and use only [A-Za-z0-9-+:_.]. */
export function isLegalCharsetName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9\-+:_.]*$/.test(name);
}

/** The Java charsets closest to a name Java does not know, for "did you mean". */
export function suggestCharset(name: string): string | null {
  const squeezed = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const [canonical, , ...aliases] of JAVA_CHARSETS) {
    if ([canonical, ...aliases].some((n) => n.toLowerCase().replace(/[^a-z0-9]/g, '') === squeezed)) return canonical;
  }
  return null;
}
