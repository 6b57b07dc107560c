/** `whenAddsSettled`: how the dev miner waits for sends still on their way into the pool. */
import { describe, expect, it } from 'vitest';
import { TxPool } from '../../../src/chain/txpool/index.js';
import { ETHER, FakeChain, Signer } from './fake-chain.js';

const alice = Signer.fromSeed('alice');

function poolWithAlice(): TxPool {
  const chain = new FakeChain();
  chain.set(alice.address, { nonce: 0n, balance: 10n * ETHER });
  return new TxPool(chain);
}

describe('TxPool.whenAddsSettled', () => {
  it('resolves at once when no add is under way', async () => {
    const pool = poolWithAlice();
    let settled = false;
    void pool.whenAddsSettled(10_000).then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(true);
  });

  it('waits for adds started one after another in their callers’ continuations, then resolves', async () => {
    const pool = poolWithAlice();
    const order: string[] = [];
    const sends = (async () => {
      for (let nonce = 0n; nonce < 5n; nonce++) {
        await pool.add(alice.transfer(nonce).serialize());
        order.push(`added ${nonce}`);
      }
    })();
    await Promise.resolve();
    await pool.whenAddsSettled(10_000);
    order.push('settled');
    await sends;
    expect(order).toEqual(['added 0', 'added 1', 'added 2', 'added 3', 'added 4', 'settled']);
    expect(pool.pendingCount).toBe(5);
  });

  it('gives up waiting after the time limit', async () => {
    const chain = new FakeChain();
    chain.set(alice.address, { nonce: 0n, balance: 10n * ETHER });
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const account = chain.account.bind(chain);
    chain.account = async (address) => {
      await blocked;
      return account(address);
    };
    const pool = new TxPool(chain);
    const add = pool.add(alice.transfer(0n).serialize());
    const started = performance.now();
    await pool.whenAddsSettled(50);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(pool.pendingCount).toBe(0);
    release();
    await add;
    expect(pool.pendingCount).toBe(1);
  });
});
