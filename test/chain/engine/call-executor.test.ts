/**
 * Calls reuse VMs per block (exec/call.ts): a call's writes must never be seen by a later or a concurrent call,
 * a failed call must not poison the VMs, and state views are shared per block yet answer per block.
 */
import { bytesToBigInt } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { addresses, deployCounter, encodeCounterCall, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

const encode = encodeCounterCall;

describe('calls on reused VMs', () => {
  const dir = tempDir();
  let chain: Blockchain;
  let counter: Uint8Array;

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    counter = await deployCounter(chain);
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  const count = async (ref: 'latest' | bigint = 'latest') =>
    bytesToBigInt((await chain.call(ref, { to: counter, data: encode('count') }))!.returnData);

  it('a call that writes leaves the next calls on the same block untouched', async () => {
    expect(await count()).toBe(5n);
    for (let i = 0; i < 3; i++) {
      const write = (await chain.call('latest', { from: addresses[0], to: counter, data: encode('increment', [7n]) }))!;
      expect(write.error).toBeUndefined();
      expect(write.logs).toHaveLength(1);
      expect(await count()).toBe(5n);
    }
  });

  it('concurrent calls each see the block state, not each other', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? chain
              .call('latest', { from: addresses[0], to: counter, data: encode('increment', [BigInt(i + 1)]) })
              .then(() => -1n)
          : count(),
      ),
    );
    expect(results.filter((r) => r !== -1n)).toEqual(Array(6).fill(5n));
  });

  it('rejections and reverts do not poison later calls', async () => {
    const tooLittleGas = (await chain.call('latest', { to: counter, data: encode('count'), gas: 100n }))!;
    expect(tooLittleGas.error).toMatch(/gas/i);
    const reverted = (await chain.call('latest', {
      from: addresses[0],
      to: counter,
      data: encode('increment', [0n]),
    }))!;
    expect(reverted.reverted).toBe(true);
    expect(await count()).toBe(5n);
  });

  it('each block answers with its own state, in calls and in state views', async () => {
    await mine(chain, [
      signedTx(chain, { from: 0, nonce: 1n, to: counter, data: encode('increment', [10n]), gasLimit: 100_000n }),
    ]);
    expect(await count('latest')).toBe(15n);
    expect(await count(1n)).toBe(5n);
    const [before, after] = [(await chain.stateAt(1n))!, (await chain.stateAt('latest'))!];
    expect(await before.getNonce(addresses[0])).toBe(1n);
    expect(await after.getNonce(addresses[0])).toBe(2n);
    expect(await chain.stateAt('latest')).toBe(after); // one shared view per block
  });
});
