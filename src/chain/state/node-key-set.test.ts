import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NodeKeySet } from './node-key-set.js';

describe('NodeKeySet', () => {
  it('holds exactly what was added, across growth and keys that share their slot bytes', () => {
    const set = new NodeKeySet(4);
    const added = Array.from({ length: 5000 }, () => new Uint8Array(randomBytes(32)));
    // Same first 4 bytes (same slot), differing only in the last byte: found by the full comparison alone.
    const twin = Uint8Array.from(added[0]!);
    twin[31] ^= 1;
    for (const key of added) expect(set.add(key)).toBe(true);
    for (const key of added) expect(set.add(Uint8Array.from(key))).toBe(false);
    for (const key of added) expect(set.has(Uint8Array.from(key))).toBe(true);
    expect(set.has(twin)).toBe(false);
    for (let i = 0; i < 5000; i++) expect(set.has(new Uint8Array(randomBytes(32)))).toBe(false);
    const code = Uint8Array.of(0x63, ...added[1]!);
    expect(set.has(code)).toBe(false);
    expect(set.add(code)).toBe(true);
    expect(set.has(code)).toBe(true);
    expect(set.has(added[1]!.subarray(0, 31))).toBe(false);
    expect(set.size).toBe(5001);
  });
});
