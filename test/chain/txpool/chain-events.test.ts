import { beforeEach, describe, expect, it } from 'vitest';
import { TxPool, type PooledTx, type TxDropReason } from '../../../src/chain/txpool/index.js';
import { ETHER, FakeChain, GWEI, Signer } from './fake-chain.js';

const alice = Signer.fromSeed('alice');
const bob = Signer.fromSeed('bob');

const label = (tx: PooledTx) => `${tx.senderHex === alice.address.toString() ? 'A' : 'B'}${tx.nonce}`;

describe('TxPool following the chain', () => {
  let chain: FakeChain;
  let pool: TxPool;
  let dropped: string[];

  beforeEach(() => {
    chain = new FakeChain();
    chain.set(alice.address, { nonce: 0n, balance: 10n * ETHER });
    chain.set(bob.address, { nonce: 0n, balance: 10n * ETHER });
    pool = new TxPool(chain);
    dropped = [];
    pool.on('tx:dropped', ({ tx, reason }: { tx: PooledTx; reason: TxDropReason }) =>
      dropped.push(`${label(tx)}:${reason}`),
    );
  });

  it('drops mined transactions and keeps the sender’s later ones pending', async () => {
    const a0 = alice.transfer(0n);
    const a1 = alice.transfer(1n);
    await pool.add(a0.serialize());
    await pool.add(a1.serialize());
    await pool.add(bob.transfer(0n).serialize());
    const promoted: string[] = [];
    pool.on('tx:promoted', (tx) => promoted.push(label(tx)));

    chain.set(alice.address, { nonce: 1n, balance: 9n * ETHER });
    await pool.onBlockAdded([a0]);
    expect(dropped).toEqual(['A0:mined']);
    expect(promoted).toEqual([]);
    expect(pool.has(a0.hash())).toBe(false);
    expect(pool.pending().map(label).sort()).toEqual(['A1', 'B0']);
    expect(pool.pendingNonce(alice.address)).toBe(2n);
  });

  it('takes an empty head on an empty pool without a refresh, and leaves one with transactions pooled to onBlockAdded', async () => {
    expect(pool.noteEmptyHead()).toBe(true);
    const a0 = alice.transfer(0n);
    await pool.add(a0.serialize());
    expect(pool.noteEmptyHead()).toBe(false);
    await pool.onBlockAdded([]);
    expect(pool.has(a0.hash())).toBe(true);
    expect(dropped).toEqual([]);
  });

  it('a block that mined another transaction with a pooled nonce makes the pooled one stale', async () => {
    await pool.add(alice.transfer(0n, { gasPrice: GWEI }).serialize());
    await pool.add(alice.transfer(1n).serialize());
    const minedElsewhere = alice.transfer(0n, { gasPrice: 3n * GWEI, value: 5n });
    chain.set(alice.address, { nonce: 1n, balance: 9n * ETHER });
    await pool.onBlockAdded([minedElsewhere]);
    expect(dropped).toEqual(['A0:stale']);
    expect(pool.pending().map(label)).toEqual(['A1']);
  });

  it('keeps transactions the sender can no longer pay after a block queued, with the reason, until it can', async () => {
    await pool.add(alice.transfer(0n, { value: 1n * ETHER }).serialize());
    const a1 = alice.transfer(1n, { value: 5n * ETHER });
    await pool.add(a1.serialize());
    await pool.add(alice.transfer(2n, { value: 1n * ETHER }).serialize());
    const a0 = alice.transfer(0n, { value: 1n * ETHER });
    chain.set(alice.address, { nonce: 1n, balance: 2n * ETHER });
    await pool.onBlockAdded([a0]);
    expect(dropped).toEqual(['A0:mined']);
    expect(pool.pending().map(label)).toEqual([]);
    expect(pool.queued().map(label)).toEqual(['A1', 'A2']);
    expect(pool.waitingReason(a1.hash())).toMatch(/^sender balance 2\.0 ETC is below the cost 5\.0000\d+ ETC$/);

    // Paid by someone else's block (alice sent nothing in it): her waiting transactions are read again.
    chain.set(alice.address, { nonce: 1n, balance: 9n * ETHER });
    await pool.onBlockAdded([bob.transfer(0n)]);
    expect(pool.pending().map(label)).toEqual(['A1', 'A2']);
    expect(pool.waitingReason(a1.hash())).toBeUndefined();
    expect(dropped).toEqual(['A0:mined']);
  });

  it('lets an unpayable transaction expire a lifetime after it became unpayable, remembering why', async () => {
    let now = 1_000_000;
    pool = new TxPool(chain, { queuedLifetimeMs: 60_000, now: () => now });
    const a0 = alice.transfer(0n, { value: 5n * ETHER });
    await pool.add(a0.serialize());
    now += 120_000; // pending this long: its lifetime runs only once it is queued
    chain.set(alice.address, { nonce: 0n, balance: 1n * ETHER });
    await pool.onReorg([], []);
    expect(pool.statusOf(a0.hash())).toBe('queued');
    expect(pool.pruneExpired()).toBe(0);
    now += 60_000;
    expect(pool.pruneExpired()).toBe(1);
    expect(pool.droppedRecord(a0.hash())).toMatchObject({
      reason: 'expired',
      nonce: 0n,
      detail: expect.stringMatching(
        /^expired: queued longer than the pool's lifetime of 60 s \(sender balance 1\.0 ETC/,
      ),
    });
  });

  it('a block without pooled senders changes nothing and reads no accounts', async () => {
    await pool.add(alice.transfer(0n).serialize());
    const carol = Signer.fromSeed('carol');
    const reads = chain.accountReads;
    await pool.onBlockAdded([carol.transfer(0n)]);
    expect(chain.accountReads).toBe(reads);
    expect(pool.size).toBe(1);
  });

  it('re-injects transactions of dropped blocks and removes those of the new branch on a reorg', async () => {
    // Old branch mined A0, A1 and B0; the pool is empty of them.
    const a0 = alice.transfer(0n);
    const a1 = alice.transfer(1n);
    const b0 = bob.transfer(0n);
    const a2 = alice.transfer(2n);
    await pool.add(a2.serialize());
    chain.set(alice.address, { nonce: 2n, balance: 10n * ETHER });
    chain.set(bob.address, { nonce: 1n, balance: 10n * ETHER });
    await pool.onBlockAdded([a0, a1, b0]);
    expect(pool.pending().map(label)).toEqual(['A2']);

    // The new branch contains only B0: A0 and A1 must come back, before the still-pooled A2.
    chain.set(alice.address, { nonce: 0n, balance: 10n * ETHER });
    const added: string[] = [];
    pool.on('tx:added', ({ tx }) => added.push(label(tx)));
    const result = await pool.onReorg([a0, a1, b0], [b0]);
    expect(result.reinjected.map(label)).toEqual(['A0', 'A1']);
    expect(result.rejected).toEqual([]);
    expect(added).toEqual(['A0', 'A1']);
    expect(pool.pending().map(label)).toEqual(['A0', 'A1', 'A2']);
    expect(pool.has(b0.hash())).toBe(false);
  });

  it('on a reorg, pooled transactions that the new branch mined leave as mined', async () => {
    const a0 = alice.transfer(0n);
    await pool.add(a0.serialize());
    chain.set(alice.address, { nonce: 1n, balance: 9n * ETHER });
    const result = await pool.onReorg([], [a0]);
    expect(result.reinjected).toEqual([]);
    expect(dropped).toEqual(['A0:mined']);
    expect(pool.size).toBe(0);
  });

  it('reports dropped-block transactions that no longer validate instead of pooling them', async () => {
    const b0 = bob.transfer(0n);
    chain.set(bob.address, { nonce: 1n, balance: ETHER }); // the new branch used nonce 0 for something else
    const result = await pool.onReorg([b0], []);
    expect(result.reinjected).toEqual([]);
    expect(result.rejected.map((r) => r.error.reason)).toEqual(['nonce-too-low']);
  });

  it('an add whose account read straddles a new head reads the account again', async () => {
    const a0 = alice.transfer(0n);
    const a1 = alice.transfer(1n);
    await pool.add(a0.serialize());
    // While the pool reads alice's account for A0's replacement, A0 gets mined.
    chain.duringRead = async () => {
      chain.set(alice.address, { nonce: 1n, balance: 9n * ETHER });
      await pool.onBlockAdded([a0]);
    };
    const replacement = alice.transfer(0n, { gasPrice: 2n * GWEI });
    await expect(pool.add(replacement.serialize())).rejects.toMatchObject({
      reason: 'nonce-too-low',
      details: { expectedNonce: 1n },
    });
    await expect(pool.add(a1.serialize())).resolves.toMatchObject({ status: 'pending' });
  });

  it('clear() empties the pool and reports every transaction', async () => {
    await pool.add(alice.transfer(0n).serialize());
    await pool.add(bob.transfer(3n).serialize());
    pool.clear();
    expect(pool.size).toBe(0);
    expect(pool.all()).toEqual([]);
    expect(dropped.sort()).toEqual(['A0:cleared', 'B3:cleared']);
  });
});
