import { RLP } from '@ethereumjs/rlp';
import { describe, expect, it } from 'vitest';
import { buildRangeTrie } from '../view/snap-store.js';
import { keccak256 } from '../base/crypto.js';
import { decodeRlpList } from './rlp-views.js';

describe('decodeRlpList', () => {
  it('reads trie nodes and nested lists of every length class as the library does', async () => {
    const { nodes } = await buildRangeTrie(
      Array.from({ length: 500 }, (_, i) => ({
        key: keccak256(new Uint8Array([i & 0xff, i >> 8])),
        value: i % 2 === 0 ? new Uint8Array([i & 0x7f]) : new Uint8Array(40).fill(i & 0xff),
      })).sort((a, b) => Buffer.compare(a.key, b.key)),
    );
    for (const [, encoded] of nodes) expect(decodeRlpList(encoded)).toEqual(RLP.decode(encoded));
    const lists = [
      [],
      [new Uint8Array(0), Uint8Array.of(0x7f), Uint8Array.of(0x80), new Uint8Array(55), new Uint8Array(56)],
      [[new Uint8Array(300)], [[Uint8Array.of(1)], []], new Uint8Array(70_000)],
    ];
    for (const list of lists) expect(decodeRlpList(RLP.encode(list))).toEqual(RLP.decode(RLP.encode(list)));
  });

  it('refuses a truncated encoding, trailing bytes and a lone string', () => {
    const encoded = RLP.encode([new Uint8Array(40), [Uint8Array.of(1, 2)]]);
    expect(() => decodeRlpList(encoded.subarray(0, encoded.length - 1))).toThrow();
    expect(() => decodeRlpList(Uint8Array.of(...encoded, 0))).toThrow();
    expect(() => decodeRlpList(RLP.encode(new Uint8Array(40)))).toThrow();
  });
});
