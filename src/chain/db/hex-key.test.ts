/** hexKey must give exactly the text of bytesToUnprefixedHex (caches mix keys made either way), views included. */
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { hexKey } from './hex-key.js';

describe('hexKey', () => {
  it('matches bytesToUnprefixedHex for empty, short, 32-byte and offset views of a larger buffer', () => {
    const backing = Uint8Array.from({ length: 80 }, (_, i) => (i * 37 + 5) & 0xff);
    const cases = [
      new Uint8Array(0),
      Uint8Array.of(0, 0x0f, 0xf0, 0xff),
      backing.subarray(7, 39),
      backing.subarray(40),
    ];
    for (const bytes of cases) expect(hexKey(bytes)).toBe(bytesToUnprefixedHex(bytes));
  });

  it('matches it for every byte value and every length either side of the reused buffer (64 bytes)', () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 3) & 0xff);
    for (let length = 0; length <= 130; length++)
      for (const offset of [0, 1, 170 - length > 0 ? 170 - length : 2]) {
        const view = bytes.subarray(offset, offset + length);
        expect(hexKey(view)).toBe(bytesToUnprefixedHex(view));
      }
  });
});
