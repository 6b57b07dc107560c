/**
 * The crash loop's offline checker (scripts/crashloop/offline-check.ts) on a real chain database: a clean one passes
 * every category, and each kind of damage a torn write could leave (a log or address index entry for a block that
 * is not stored, a tx lookup into a missing block, a head without its state) is reported in its own category.
 */
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDatadirOffline } from '../../scripts/crashloop/offline-check.js';
import { Blockchain } from '../../src/chain/blockchain/blockchain.js';
import { ChainDB, WriteBatch } from '../../src/chain/db/chain-db.js';
import { encodeNumber, keys } from '../../src/chain/db/keys.js';
import { engineNetworkOf, etcEngineRules } from '../../src/chain/engine/engine-adapters.js';
import { ADDRESS_INDEX_TAG } from '../../src/chain/history/address-index.js';
import { LOG_INDEX_TAG } from '../../src/chain/logs/log-index.js';
import { dev } from '../../src/chain/networks/index.js';
import { instantSealNetwork } from '../../src/chain/engine/seal-mode.js';
import { Counter } from '../rpc/contracts.js';
import { addresses, mine, signedTx, tempDir } from '../chain/engine/fixtures.js';

const network = instantSealNetwork(dev);
const dirs: Array<{ remove: () => void }> = [];
afterEach(() =>
  dirs.splice(0).forEach((d) => {
    d.remove();
  }),
);

/** A chain with a Counter deployment, an increment (a log) and a transfer; returns its datadir. */
async function buildChain(): Promise<{ dir: string; counter: Uint8Array; head: bigint; stateRoot: Uint8Array }> {
  const d = tempDir('offline-check-');
  dirs.push(d);
  const chain = await Blockchain.open({
    dataDir: d.dir,
    network: engineNetworkOf(network),
    rules: etcEngineRules(network),
    noProof: true,
  });
  const counterAbi = new Interface(Counter.abi);
  const deploy = signedTx(chain, {
    from: 1,
    nonce: 0n,
    data: hexToBytes((Counter.bytecode + counterAbi.encodeDeploy([1n]).slice(2)) as `0x${string}`),
    gasLimit: 1_000_000n,
  });
  const { result } = await mine(chain, [deploy]);
  expect(result.status).toBe('head');
  const counter = (await chain.getReceipts(chain.getHead().hash()))![0].contractAddress!;
  const increment = signedTx(chain, {
    from: 1,
    nonce: 1n,
    to: counter,
    data: hexToBytes(counterAbi.encodeFunctionData('increment', [5n]) as `0x${string}`),
    gasLimit: 200_000n,
  });
  await mine(chain, [increment, signedTx(chain, { from: 2, nonce: 0n, to: addresses[3], value: 7n })]);
  const head = chain.getHead();
  await chain.close();
  return { dir: d.dir, counter, head: head.header.number, stateRoot: head.header.stateRoot };
}

describe('offline datadir checker', () => {
  it('passes a clean datadir and reports each kind of dangling entry in its category', async () => {
    const { dir, counter, head, stateRoot } = await buildChain();
    const clean = await checkDatadirOffline(dir, network);
    expect(Object.values(clean.failures).flat()).toEqual([]);
    expect(clean.head?.number).toBe(head);
    expect(clean.counts.logPostings).toBeGreaterThan(0);
    expect(clean.counts.addressEntries).toBeGreaterThanOrEqual(4);
    expect(clean.counts.txLookups).toBe(3);

    const missing = new Uint8Array(32).fill(0xee);
    const db = await ChainDB.open(join(dir, 'chaindata'));
    const batch = new WriteBatch()
      // A log posting (address kind) and an address-index entry for a block that was never stored.
      .put(Uint8Array.of(LOG_INDEX_TAG, 0x01, ...counter, ...encodeNumber(head + 1n), ...missing), new Uint8Array(0))
      .put(
        Uint8Array.of(ADDRESS_INDEX_TAG, ...counter, ...encodeNumber(head + 1n), ...missing, 0, 0, 0, 0),
        new Uint8Array(0),
      )
      // A tx lookup into that block, and the head's state without its root node.
      .put(keys.txLookup(new Uint8Array(32).fill(0xdd)), RLP.encode([missing, 0]))
      .del(keys.state(stateRoot));
    await db.write(batch);
    await db.close();

    const damaged = await checkDatadirOffline(dir, network);
    expect(damaged.failures['log-index'].join('\n')).toMatch(/block \d+ 0xeeee.*not stored/);
    expect(damaged.failures['address-index'].join('\n')).toMatch(/0xeeee.*not stored/);
    expect(damaged.failures['tx-index'].join('\n')).toMatch(/0xeeee.*not stored/);
    expect(damaged.failures.state).toHaveLength(1);
    expect(damaged.failures.head).toEqual([]);
    expect(damaged.failures.canonical).toEqual([]);
  });

  it('reports a datadir that does not reopen', async () => {
    const d = tempDir('offline-check-');
    dirs.push(d);
    // Another chain's database (the Ethash dev chain) under the instant-seal network: a genesis mismatch.
    const chain = await Blockchain.open({
      dataDir: d.dir,
      network: engineNetworkOf(dev),
      rules: etcEngineRules(dev),
      noProof: true,
    });
    await chain.close();
    const result = await checkDatadirOffline(d.dir, network);
    expect(result.failures.reopen.join('\n')).toMatch(/does not reopen/);
  });
});
