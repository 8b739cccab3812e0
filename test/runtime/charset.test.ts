import { describe, expect, it } from 'vitest';
import { charsetDecoder } from '../../src/runtime/index.js';

describe('charset decoders', () => {
  it("decodes windows-1252 (and Java's Cp1252) as Java does: 0x80 is the euro sign, unmapped bytes are U+FFFD", () => {
    for (const name of ['windows-1252', 'Cp1252', 'WINDOWS-1252']) {
      const d = charsetDecoder(name)!;
      expect(d(Buffer.from([0x80, 0x9f, 0x41, 0xe9])), name).toBe('\u20acŸAé');
      expect(d(Buffer.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]))).toBe('\ufffd'.repeat(5));
    }
  });

  it('keeps ISO-8859-1 as Latin-1, not windows-1252', () => {
    expect(charsetDecoder('ISO-8859-1')!(Buffer.from([0x80]))).toBe('\u0080');
  });
});
