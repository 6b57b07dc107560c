import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { unpaddedBytes, unpaddedNumberBytes } from './unpadded-bytes.js';

describe('unpaddedBytes', () => {
  it("equals the library's bytes at every byte-length boundary, past the safe integers and for random values", () => {
    const values: bigint[] = [0n, 1n, 127n, 128n];
    for (let bits = 8n; bits <= 256n; bits += 8n) values.push((1n << bits) - 1n, 1n << bits, (1n << bits) + 1n);
    const safe = BigInt(Number.MAX_SAFE_INTEGER);
    values.push(safe - 1n, safe, safe + 1n, 2n ** 256n - 1n);
    let seed = 0x2545f491n;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) & (2n ** 64n - 1n);
      values.push(seed >> BigInt(i % 60));
    }
    for (const value of values) {
      expect(unpaddedBytes(value), `${value}`).toEqual(bigIntToUnpaddedBytes(value));
      if (value <= safe) expect(unpaddedNumberBytes(Number(value)), `${value}`).toEqual(bigIntToUnpaddedBytes(value));
    }
  });
});
