/**
 * A new datadir's flat state comes from the genesis allocation as listed (genesis/alloc-state.ts), not from a walk
 * of the new trie: after the open the table holds exactly the trie's leaves, code and storage included.
 */
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import type { GenesisAccount } from '../../../src/chain/networks/types.js';
import { tempDir } from '../engine/fixtures.js';
import { flatOf, flatReady, tableEntries, trieEntries } from './flat-check.js';

const word = (n: number, size = 32) => setLengthLeft(bigIntToBytes(BigInt(n)), size);
const alloc: GenesisAccount[] = [
  ...Array.from({ length: 200 }, (_, i) => ({ address: word(0x7a0000 + i, 20), balance: BigInt(i) * 10n ** 15n })),
  ...Array.from({ length: 4 }, (_, c) => ({
    address: word(0x7b0000 + c, 20),
    balance: 1n,
    nonce: 1n,
    code: Uint8Array.of(0x60, c, 0x00),
    storage: Array.from(
      { length: 20 },
      (_, j) => [word(j), word(j % 5 === 0 ? 0 : c * 100 + j, 1 + (j % 32))] as const,
    ),
  })),
];
const network = { ...dev, genesis: { ...dev.genesis, loadAlloc: async () => alloc } };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('flat state of a new datadir', () => {
  it('is the genesis allocation, listed rather than walked, equal to the trie', async () => {
    const tmp = tempDir('flat-genesis-');
    const chain = await Blockchain.open({
      dataDir: tmp.dir,
      network: engineNetworkOf(network),
      rules: etcEngineRules(network),
      noProof: true,
    });
    cleanups.push(tmp.remove, () => chain.close());
    await flatReady(chain);
    const flat = flatOf(chain);
    expect(flat.listedMoves).toBe(1);
    expect(flat.rebuilds).toBe(0);
    const trie = trieEntries(chain, chain.getHead().header.stateRoot);
    expect(trie.size).toBe(200 + 4 + 4 * 16);
    expect(await tableEntries(chain)).toEqual(trie);
  });
});
