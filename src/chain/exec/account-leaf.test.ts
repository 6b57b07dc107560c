import { RLP } from '@ethereumjs/rlp';
import { Account, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { encodeAccountLeaf } from './account-leaf.js';

/** A small deterministic generator, so a failure names its case. */
function* cases(): Generator<{ path: Uint8Array; account: Account }> {
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const bytes = (n: number) => Uint8Array.from({ length: n }, () => next() & 0xff);
  const big = (n: number) => (n === 0 ? 0n : BigInt(`0x${Buffer.from(bytes(n)).toString('hex')}`));
  for (let i = 0; i < 400; i++) {
    const pathLength = [1, 1, 2, 17, 32, 33][i % 6];
    const path = bytes(pathLength);
    if (pathLength === 1) path[0] = [0x20, 0x3f, 0x7f, 0x80][i % 4];
    const account = new Account(
      big([0, 1, 1, 8][i % 4]),
      big([0, 1, 2, 9, 20, 32][(i >> 2) % 6]),
      i % 3 === 0 ? KECCAK256_RLP : bytes(32),
      i % 5 === 0 ? KECCAK256_NULL : bytes(32),
    );
    yield { path, account };
  }
  // The edges of a one-byte value below and at 0x80, and a balance of exactly 0x7f.
  yield { path: Uint8Array.of(0x20), account: new Account(0x7fn, 0x80n) };
  yield { path: Uint8Array.of(0x3a), account: new Account(0n, 0x7fn) };
}

describe('encodeAccountLeaf', () => {
  it('writes the bytes of RLP.encode([path, account.serialize()])', () => {
    let n = 0;
    for (const { path, account } of cases()) {
      const { leaf, value } = encodeAccountLeaf(path, account);
      expect(leaf, `case ${n}`).toEqual(RLP.encode([path, account.serialize()]));
      expect(value, `case ${n}`).toEqual(account.serialize());
      n++;
    }
    expect(n).toBe(402);
  });
});
