/**
 * AccountHistory.page over the address index (what ots_searchTransactions* read): walking back and forward from a
 * block, whole blocks per page, `more` when another transaction lies beyond, and entries of blocks that are not
 * canonical (a reorganised-away sibling) skipped.
 */
import { describe, expect, it } from 'vitest';
import { type AddressIndexReader, addressIndexWrites } from './address-index.js';
import { AccountHistory, type HistoryChain } from './account-history.js';

const address = (n: number) => new Uint8Array(20).fill(n);
const hashOf = (number: number, fork: number) => new Uint8Array(32).fill(number * 2 + fork);
const ME = address(1);
const OTHER = address(2);

interface FakeBlock {
  readonly number: number;
  readonly fork: number;
  /** Per transaction: is ME its sender (else its recipient)? */
  readonly mine: readonly boolean[];
}

function fakeChain(blocks: readonly FakeBlock[], head: number) {
  const keys: Uint8Array[] = [];
  const byHash = new Map<string, { block: unknown; receipts: unknown[] }>();
  for (const b of blocks) {
    const txs = b.mine.map((sent) => ({ to: { bytes: sent ? OTHER : ME } }));
    const receipts = b.mine.map((sent) => ({ from: sent ? ME : OTHER }));
    const block = { hash: () => hashOf(b.number, b.fork), header: { number: BigInt(b.number) }, transactions: txs };
    for (const op of addressIndexWrites(block, receipts)) keys.push(op.key);
    byHash.set(Buffer.from(block.hash()).toString('hex'), { block, receipts });
  }
  keys.sort(Buffer.compare);
  const reader: AddressIndexReader = {
    keys({ gte, lt, reverse }) {
      const inRange = keys.filter((k) => Buffer.compare(k, gte) >= 0 && Buffer.compare(k, lt) < 0);
      const queue = reverse ? inRange.reverse() : inRange;
      return { nextv: async (size) => queue.splice(0, size), close: async () => {} };
    },
  };
  const chain = {
    getHead: () => ({ header: { number: BigInt(head) } }),
    getCanonicalHash: async (n: bigint) => hashOf(Number(n), 0),
    getBlock: async (h: Uint8Array) => byHash.get(Buffer.from(h).toString('hex'))?.block,
    getReceipts: async (h: Uint8Array) => byHash.get(Buffer.from(h).toString('hex'))?.receipts,
  };
  return new AccountHistory(chain as unknown as HistoryChain, reader);
}

const where = (page: Awaited<ReturnType<AccountHistory['page']>>) =>
  page.transactions.map((t) => `${t.block.header.number}.${t.index}`);

describe('AccountHistory.page', () => {
  // Block 3 has two of ME's transactions; block 4 exists twice (fork 1 is not canonical); block 6 is past the head.
  const history = fakeChain(
    [
      { number: 1, fork: 0, mine: [true] },
      { number: 3, fork: 0, mine: [true, false] },
      { number: 4, fork: 1, mine: [true] },
      { number: 4, fork: 0, mine: [false] },
      { number: 5, fork: 0, mine: [true] },
      { number: 6, fork: 0, mine: [true] },
    ],
    5,
  );

  it('walks back from a block, last transaction first, keeping blocks whole', async () => {
    expect(where(await history.page(ME, 9n, 'back', 1))).toEqual(['5.0']);
    const page = await history.page(ME, 5n, 'back', 2);
    expect(where(page)).toEqual(['5.0', '4.0']);
    expect(page.more).toBe(true);
    const next = await history.page(ME, 3n, 'back', 1);
    expect(where(next)).toEqual(['3.1', '3.0']);
    expect(next.more).toBe(true);
    const last = await history.page(ME, 2n, 'back', 25);
    expect(where(last)).toEqual(['1.0']);
    expect(last.more).toBe(false);
  });

  it('walks forward up to the head, skipping blocks off the canonical chain', async () => {
    const page = await history.page(ME, 2n, 'forward', 2);
    expect(where(page)).toEqual(['3.0', '3.1']);
    expect(page.more).toBe(true);
    const rest = await history.page(ME, 4n, 'forward', 25);
    expect(where(rest)).toEqual(['4.0', '5.0']);
    expect(rest.more).toBe(false);
    expect(rest.transactions.map((t) => t.isOutgoing)).toEqual([false, true]);
  });
});
