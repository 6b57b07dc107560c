/**
 * The pool reads its senders at each head through `Blockchain.headAccountNow` (the state the head's block was
 * assembled on) before any read view. Whatever it answers must be the head's state as the trie and flat state hold
 * it, over random blocks, dev state edits and rewinds; and it must answer for a mined block's sender, or the pool
 * is back on the slow path without any test noticing.
 */
import { Account, Address, bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { seededRandom } from '../../helpers/seeded-random.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

const dir = tempDir('head-account-now-');
let chain: Blockchain;

beforeAll(async () => {
  chain = await openDevChain(dir.dir, { flatState: true });
});

afterAll(async () => {
  await chain?.close();
  dir.remove();
});

/** The head's account read through its state root (trie, flat state), not through the miner's kept state. */
async function stored(address: Uint8Array): Promise<{ nonce: bigint; balance: bigint }> {
  const view = (await chain.stateAt('latest'))!;
  const account = await view.stateManager.getAccount(new Address(address));
  return { nonce: account?.nonce ?? 0n, balance: account?.balance ?? 0n };
}

describe('headAccountNow', () => {
  it("answers as the head's stored state over random blocks, state edits and rewinds", async () => {
    const random = seededRandom(40);
    const pick = (n: number) => Math.floor(random() * n);
    const fresh = Array.from({ length: 4 }, (_, i) => new Uint8Array(20).fill(0xa0 + i));
    const everyone = [...addresses.slice(0, 4), ...fresh, new Uint8Array(20).fill(0xcb)];
    const nonces = [0n, 0n, 0n, 0n];
    let answered = 0;
    let sendersAnswered = 0;
    for (let step = 0; step < 40; step++) {
      const roll = random();
      const senders: number[] = [];
      if (roll < 0.1 && step > 3) {
        // evm_revert / test_rewindToBlock: the head moves back without an import.
        await chain.rewindTo(chain.getHead().header.number - 1n - BigInt(pick(2)));
        for (let i = 0; i < 4; i++) nonces[i] = (await stored(addresses[i]!)).nonce;
      } else if (roll < 0.2) {
        // anvil_setBalance / anvil_setNonce: the head's state changes under the same head.
        const who = pick(4);
        await chain.editHeadState(async (sm) => {
          const at = new Address(addresses[who]!);
          const was = (await sm.getAccount(at)) ?? new Account();
          await sm.putAccount(at, new Account(was.nonce + BigInt(pick(3)), was.balance + 10n ** 18n));
        });
        nonces[who] = (await stored(addresses[who]!)).nonce;
      } else {
        const txs = [];
        for (let n = 1 + pick(3); n > 0; n--) {
          const from = pick(4);
          senders.push(from);
          const to = everyone[pick(everyone.length)]!;
          txs.push(signedTx(chain, { from, nonce: nonces[from]!++, to, value: BigInt(pick(1000)) * 10n ** 15n }));
        }
        const { result } = await mine(chain, txs);
        expect(result.status).toBe('head');
      }
      for (const address of everyone) {
        const now = chain.headAccountNow(new Address(address));
        if (now === undefined) continue;
        answered++;
        const want = await stored(address);
        expect(
          { nonce: now?.nonce ?? 0n, balance: now?.balance ?? 0n },
          `${bytesToHex(address)} at step ${step}`,
        ).toEqual(want);
      }
      for (const from of senders)
        if (chain.headAccountNow(new Address(addresses[from]!)) !== undefined) sendersAnswered++;
    }
    expect(answered).toBeGreaterThan(40);
    // Every sender of a mined block (the pool's refresh) and of the next send (its admission) is answered at once.
    expect(sendersAnswered).toBeGreaterThan(0);
    const last = chain.getHead();
    const { block } = await mine(chain, [signedTx(chain, { from: 1, nonce: nonces[1]!++, to: fresh[0], value: 1n })]);
    expect(block.header.parentHash).toEqual(last.hash());
    expect(chain.headAccountNow(new Address(addresses[1]!))).toBeDefined();
  });
});
