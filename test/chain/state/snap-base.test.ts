/**
 * "State not held": a snap-synced node records the block its sync started from (meta 'snapBase'); every state read
 * of an earlier block — views and calls — must say the state is not held instead of failing on a missing trie
 * node. Without a record nothing changes. The record is read at open and set by the snap handover.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { type ChainDB, WriteBatch } from '../../../src/chain/db/chain-db.js';
import { StateNotHeldError, stateNotHeldMessage, writeSnapBase } from '../../../src/chain/state/snap-base.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

const TO = new Uint8Array(20).fill(0x42);

describe('state below the snap-sync base', () => {
  const dir = tempDir('snap-base-');
  let chain: Blockchain;
  /** Hashes of blocks 0…4. */
  const hashes: Uint8Array[] = [];

  const reopen = async () => {
    await chain.close();
    chain = await openDevChain(dir.dir);
  };
  const recordBase = async (db: ChainDB, number: bigint) => {
    const batch = new WriteBatch();
    writeSnapBase(batch, { number, hash: hashes[Number(number)]! });
    await db.write(batch);
  };

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    hashes.push(chain.getGenesis().hash());
    for (let n = 0n; n < 4n; n++) {
      const { block } = await mine(chain, [signedTx(chain, { from: 0, nonce: n, to: TO, value: 1n + n })]);
      hashes.push(block.hash());
    }
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  it('reads every state when no base is recorded', async () => {
    expect(await (await chain.stateAt(0n))!.getBalance(TO)).toBe(0n);
    expect(await (await chain.stateAt(1n))!.getBalance(TO)).toBe(1n);
    expect(await chain.call(hashes[1]!, { to: TO })).toBeDefined();
  });

  it('refuses states below a base the snap handover records while the chain is open', async () => {
    await mine(chain, [signedTx(chain, { from: 1, nonce: 0n, to: addresses[5]!, value: 1n })]);
    const head = chain.getHead();
    await chain.snapState.adoptPivot([head], head);
    await expect(chain.stateAt(4n)).rejects.toThrow(
      `state of block 4 is not held: this node was snap-synced at block ${head.header.number}`,
    );
    expect(await (await chain.stateAt('latest'))!.getBalance(TO)).toBe(10n);
  });

  it('refuses views and calls below a base read at open, and serves the base and later blocks', async () => {
    await recordBase((chain as unknown as { db: ChainDB }).db, 2n);
    await reopen();
    const base = { number: 2n, hash: hashes[2]! };
    for (const ref of [1n, hashes[1]!, 'earliest' as const]) {
      const refused = chain.stateAt(ref);
      await expect(refused).rejects.toBeInstanceOf(StateNotHeldError);
      await expect(refused).rejects.toThrow(stateNotHeldMessage(ref === 'earliest' ? 0n : 1n, base));
    }
    await expect(chain.call(1n, { to: TO })).rejects.toThrow(
      'state of block 1 is not held: this node was snap-synced at block 2',
    );
    expect(await (await chain.stateAt(2n))!.getBalance(TO)).toBe(3n);
    expect(await (await chain.stateAt('latest'))!.getBalance(TO)).toBe(10n);
    expect(await chain.call(hashes[3]!, { to: TO })).toBeDefined();
  });
});
