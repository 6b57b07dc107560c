import { createBlockHeader } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { Account, Address, hexToBytes } from '@ethereumjs/util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installFastRlpEncode, libraryRlpEncode } from './fast-rlp.js';

type Input = Parameters<typeof RLP.encode>[0];

/** A deterministic pseudo-random tree: byte strings of every length class, null/undefined leaves, nested lists. */
function tree(seed: number, depth: number): Input {
  const r = (seed * 2654435761) >>> 0;
  if (r % 11 === 0) return r % 2 === 0 ? null : undefined;
  if (depth === 0 || r % 3 === 0) {
    const lengths = [0, 1, 1, 2, 31, 32, 55, 56, 57, 255, 256, 1_100];
    const n = lengths[r % lengths.length]!;
    return Uint8Array.from({ length: n }, (_, i) => (r >> (i % 24)) & (n === 1 && r % 2 === 0 ? 0x7f : 0xff));
  }
  return Array.from({ length: r % 18 }, (_, i) => tree(seed * 31 + i + 1, depth - 1));
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

let uninstall: (() => void) | undefined;
// vitest's shared project reuses this module graph: an engine opened by an earlier file in the same worker has already
// installed the fast encoder (for good, as the node does). Each case starts from the library's and puts back what was.
let before: typeof RLP.encode | undefined;
beforeEach(() => {
  before = RLP.encode;
  RLP.encode = libraryRlpEncode;
});
afterEach(() => {
  uninstall?.();
  uninstall = undefined;
  RLP.encode = before!;
});

/** `make()` encoded by the library's encoder and then by the installed one. */
function bothWays(make: () => Uint8Array): [string, string] {
  const library = hex(make());
  uninstall = installFastRlpEncode();
  const fast = hex(make());
  uninstall();
  uninstall = undefined;
  return [library, fast];
}

describe('installFastRlpEncode', () => {
  it('swaps the shared RLP.encode and puts the library back', () => {
    const library = RLP.encode;
    uninstall = installFastRlpEncode();
    expect(RLP.encode).not.toBe(library);
    // A second install (another engine in the process) changes nothing and undoes nothing.
    installFastRlpEncode()();
    expect(RLP.encode).not.toBe(library);
    uninstall();
    uninstall = undefined;
    expect(RLP.encode).toBe(library);
  });

  it("gives the library's bytes for byte strings, null, undefined and nested lists of every length class", () => {
    for (let seed = 1; seed < 300; seed++) {
      const [library, fast] = bothWays(() => RLP.encode(tree(seed, 3)));
      expect(fast).toBe(library);
    }
    const big = Array.from({ length: 2_000 }, (_, i) => [new Uint8Array(32).fill(i & 0xff), Uint8Array.of(i & 0x7f)]);
    const [library, fast] = bothWays(() => RLP.encode(big));
    expect(fast).toBe(library);
  });

  it("leaves numbers, bigints and text to the library's own conversions", () => {
    const inputs: Input[] = [0, 5, 127, 128, 1_000_000, 0n, 2n ** 70n, '', 'dog', '0x1234', [1, 'cat', [2n, null]]];
    for (const input of inputs) {
      const [library, fast] = bothWays(() => RLP.encode(input));
      expect(fast).toBe(library);
    }
  });

  it("gives the library's encodings of headers, accounts, transactions and trie roots", async () => {
    const common = new Common({ chain: Mainnet, hardfork: Hardfork.Istanbul });
    const header = () =>
      createBlockHeader(
        { number: 123_456n, gasLimit: 8_000_000n, gasUsed: 51_234n, timestamp: 1_733_500_000n, difficulty: 131_072n },
        { common },
      );
    expect(bothWays(() => header().serialize())[1]).toBe(bothWays(() => header().serialize())[0]);
    expect(bothWays(() => header().hash())[1]).toBe(bothWays(() => header().hash())[0]);
    const account = () => new Account(7n, 10n ** 24n).serialize();
    expect(bothWays(account)[1]).toBe(bothWays(account)[0]);
    const key = hexToBytes('0x4646464646464646464646464646464646464646464646464646464646464646');
    const tx = () =>
      createLegacyTx({ nonce: 9n, gasPrice: 20n * 10n ** 9n, gasLimit: 21_000n, value: 10n ** 18n }, { common })
        .sign(key)
        .serialize();
    expect(bothWays(tx)[1]).toBe(bothWays(tx)[0]);

    // A state root over a few accounts and slots: branch, extension and leaf nodes, embedded ones included.
    const root = async () => {
      const sm = new MerkleStateManager({ common });
      for (let i = 1; i <= 40; i++) {
        const address = new Address(new Uint8Array(20).fill(i));
        await sm.putAccount(address, new Account(BigInt(i), BigInt(i) * 10n ** 15n));
        await sm.putStorage(address, new Uint8Array(32).fill(i), Uint8Array.of(i));
      }
      await sm.flush();
      return sm.getStateRoot();
    };
    const library = hex(await root());
    uninstall = installFastRlpEncode();
    expect(hex(await root())).toBe(library);
  });
});
