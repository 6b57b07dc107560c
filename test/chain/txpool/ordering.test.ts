import { beforeEach, describe, expect, it } from 'vitest';
import { TxPool, type PooledTx, type TxPoolOptions } from '../../../src/chain/txpool/index.js';
import { ETHER, FakeChain, GWEI, Signer } from './fake-chain.js';

const alice = Signer.fromSeed('alice');
const bob = Signer.fromSeed('bob');
const carol = Signer.fromSeed('carol');

const label = (tx: PooledTx) =>
  `${tx.senderHex === alice.address.toString() ? 'A' : tx.senderHex === bob.address.toString() ? 'B' : 'C'}${tx.nonce}`;

describe('TxPool ordering', () => {
  let chain: FakeChain;
  let pool: TxPool;
  let now: number;
  const makePool = (options: TxPoolOptions = {}) => new TxPool(chain, { now: () => now, ...options });

  beforeEach(() => {
    now = 1_000_000;
    chain = new FakeChain();
    for (const s of [alice, bob, carol]) chain.set(s.address, { nonce: 0n, balance: 10n * ETHER });
    pool = makePool();
  });

  it('keeps future nonces queued and promotes them when the gap fills', async () => {
    const promoted: string[] = [];
    pool.on('tx:promoted', (tx) => promoted.push(label(tx)));
    expect((await pool.add(alice.transfer(0n).serialize())).status).toBe('pending');
    expect((await pool.add(alice.transfer(2n).serialize())).status).toBe('queued');
    expect((await pool.add(alice.transfer(3n).serialize())).status).toBe('queued');
    expect(pool.pending().map(label)).toEqual(['A0']);
    expect(pool.queued().map(label)).toEqual(['A2', 'A3']);
    expect(pool.pendingNonce(alice.address)).toBe(1n);

    expect((await pool.add(alice.transfer(1n).serialize())).status).toBe('pending');
    expect(promoted).toEqual(['A2', 'A3']);
    expect(pool.pending().map(label)).toEqual(['A0', 'A1', 'A2', 'A3']);
    expect(pool.queuedCount).toBe(0);
    expect(pool.pendingNonce(alice.address.toString().toUpperCase().replace('0X', '0x'))).toBe(4n);
  });

  it('counts pending from the account nonce, not from zero', async () => {
    chain.set(alice.address, { nonce: 7n, balance: ETHER });
    expect((await pool.add(alice.transfer(8n).serialize())).status).toBe('queued');
    expect((await pool.add(alice.transfer(7n).serialize())).status).toBe('pending');
    expect(pool.pendingBySender().get(alice.address.toString())?.map(label)).toEqual(['A7', 'A8']);
  });

  it('hands the miner executable transactions by price, keeping each sender in nonce order', async () => {
    await pool.add(alice.transfer(0n, { gasPrice: 1n * GWEI }).serialize());
    await pool.add(alice.transfer(1n, { gasPrice: 50n * GWEI }).serialize());
    await pool.add(alice.transfer(3n, { gasPrice: 99n * GWEI }).serialize()); // queued: never offered
    await pool.add(bob.transfer(0n, { gasPrice: 20n * GWEI }).serialize());
    await pool.add(bob.transfer(1n, { gasPrice: 2n * GWEI }).serialize());
    await pool.add(carol.transfer(0n, { gasPrice: 20n * GWEI }).serialize()); // same price as B0, later
    expect([...pool.executable()].map(label)).toEqual(['B0', 'C0', 'B1', 'A0', 'A1']);
  });

  it('lets the miner skip a sender whose transaction cannot be included', async () => {
    await pool.add(alice.transfer(0n, { gasPrice: 30n * GWEI }).serialize());
    await pool.add(alice.transfer(1n, { gasPrice: 30n * GWEI }).serialize());
    await pool.add(bob.transfer(0n, { gasPrice: 10n * GWEI }).serialize());
    const cursor = pool.executable();
    const taken: string[] = [];
    for (let tx = cursor.peek(); tx !== undefined; tx = cursor.peek()) {
      if (label(tx) === 'A0') {
        cursor.skipSender();
        continue;
      }
      taken.push(label(tx));
      cursor.shift();
    }
    expect(taken).toEqual(['B0']);
  });

  it('the cursor is a snapshot: pool changes during assembly do not disturb it', async () => {
    await pool.add(alice.transfer(0n).serialize());
    const cursor = pool.executable();
    await pool.add(bob.transfer(0n).serialize());
    pool.clear();
    expect([...cursor].map(label)).toEqual(['A0']);
  });

  it('removing a pending transaction queues the ones after it', async () => {
    await pool.add(alice.transfer(0n).serialize());
    const middle = alice.transfer(1n);
    await pool.add(middle.serialize());
    await pool.add(alice.transfer(2n).serialize());
    expect(pool.remove(middle.hash())).toBe(true);
    expect(pool.pending().map(label)).toEqual(['A0']);
    expect(pool.queued().map(label)).toEqual(['A2']);
    expect(pool.statusOf(alice.transfer(2n).hash())).toBe('queued');
  });

  it('when full, evicts the cheapest sender tail so no sender is left with a gap', async () => {
    pool = makePool({ maxSize: 4 });
    await pool.add(alice.transfer(0n, { gasPrice: 1n * GWEI }).serialize()); // cheapest overall, but not a tail
    await pool.add(alice.transfer(1n, { gasPrice: 4n * GWEI }).serialize());
    await pool.add(bob.transfer(0n, { gasPrice: 5n * GWEI }).serialize());
    await pool.add(bob.transfer(1n, { gasPrice: 2n * GWEI }).serialize()); // cheapest tail
    const dropped: string[] = [];
    pool.on('tx:dropped', ({ tx, reason }) => dropped.push(`${label(tx)}:${reason}`));
    await pool.add(carol.transfer(0n, { gasPrice: 3n * GWEI }).serialize());
    expect(dropped).toEqual(['B1:evicted']);
    expect(pool.size).toBe(4);
    expect(pool.queuedCount).toBe(0);
    // Next cheapest tail is carol's own 3 gwei; a 3 gwei newcomer does not outbid it.
    await expect(pool.add(carol.transfer(1n, { gasPrice: 3n * GWEI }).serialize())).rejects.toMatchObject({
      reason: 'pool-full',
    });
    // A better price from another sender evicts carol's tail.
    await pool.add(alice.transfer(2n, { gasPrice: 100n * GWEI }).serialize());
    expect(dropped).toEqual(['B1:evicted', 'C0:evicted']);
  });

  it('a sender cannot push out its own earlier nonce to make room for a later one', async () => {
    pool = makePool({ maxSize: 2 });
    await pool.add(alice.transfer(0n, { gasPrice: 1n * GWEI }).serialize());
    await pool.add(bob.transfer(0n, { gasPrice: 5n * GWEI }).serialize());
    await expect(pool.add(alice.transfer(1n, { gasPrice: 100n * GWEI }).serialize())).rejects.toMatchObject({
      reason: 'pool-full',
    });
    // Replacing its own transaction needs no room.
    await expect(pool.add(alice.transfer(0n, { gasPrice: 2n * GWEI }).serialize())).resolves.toBeDefined();
  });

  it('expires queued transactions after their lifetime, but never pending ones', async () => {
    pool = makePool({ queuedLifetimeMs: 60_000 });
    const dropped: string[] = [];
    pool.on('tx:dropped', ({ tx, reason }) => dropped.push(`${label(tx)}:${reason}`));
    await pool.add(alice.transfer(0n).serialize());
    await pool.add(alice.transfer(5n).serialize());
    now += 59_999;
    expect(pool.pruneExpired()).toBe(0);
    now += 1;
    expect(pool.pruneExpired()).toBe(1);
    expect(dropped).toEqual(['A5:expired']);
    now += 10 * 60_000;
    expect(pool.pruneExpired()).toBe(0);
    expect(pool.pending().map(label)).toEqual(['A0']);
  });

  it('sweeps expired queued transactions on its own while adds arrive', async () => {
    pool = makePool({ queuedLifetimeMs: 1_000 });
    await pool.add(alice.transfer(9n).serialize());
    now += 5_000;
    await pool.add(bob.transfer(0n).serialize());
    expect(pool.queuedCount).toBe(0);
    expect(pool.size).toBe(1);
  });

  it('emits tx:added with the status', async () => {
    const added: string[] = [];
    pool.on('tx:added', ({ tx, status }) => added.push(`${label(tx)}:${status}`));
    await pool.add(alice.transfer(1n).serialize());
    await pool.add(alice.transfer(0n).serialize());
    expect(added).toEqual(['A1:queued', 'A0:pending']);
  });
});
