import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FilterLimitError, FilterNotFoundError, FilterOverflowError } from '../../../src/chain/filters/errors.js';
import { FilterManager, type FilterManagerOptions } from '../../../src/chain/filters/filter-manager.js';
import { LogQueries } from '../../../src/chain/logs/query.js';
import type { Log, ReceiptLog } from '../../../src/chain/logs/types.js';
import { addr, log, SyntheticChain, topic, type SyntheticBlock } from '../logs/synthetic-chain.js';

let chain: SyntheticChain;
let manager: FilterManager<SyntheticBlock>;
let clock: number;
const errors: unknown[] = [];

function start(opts: Partial<FilterManagerOptions<SyntheticBlock>> = {}): FilterManager<SyntheticBlock> {
  manager?.close();
  manager = new FilterManager<SyntheticBlock>({
    source: chain,
    queries: new LogQueries({ source: chain }),
    blockByHash: async (hash) => chain.byHash(hash),
    initialHead: chain.headBlock(),
    now: () => clock,
    onError: (e) => errors.push(e),
    ...opts,
  });
  return manager;
}

beforeEach(() => {
  chain = new SyntheticChain();
  clock = 1_000_000;
  errors.length = 0;
  start();
});
afterEach(() => {
  manager.close();
  expect(errors).toEqual([]);
});

/** Imports a block on the head and announces it as the engine does. */
async function mine(...txLogs: ReceiptLog[][]): Promise<SyntheticBlock> {
  const block = await chain.extend(txLogs);
  manager.onNewHead(block);
  return block;
}

/** Makes `head` canonical and announces it as the engine does: reorg first, then newHead. */
function reorgTo(head: SyntheticBlock) {
  const event = chain.reorgTo(head);
  manager.onReorg(event);
  manager.onNewHead(head);
  return event;
}

async function logsOf(id: bigint): Promise<Log[]> {
  const changes = await manager.changes(id);
  if (changes.kind !== 'logs') throw new Error(`expected logs, got ${changes.kind}`);
  return changes.logs;
}
const brief = (logs: Log[]) => logs.map((l) => `${l.blockNumber}:${l.address[19]}${l.removed ? ':removed' : ''}`);

describe('log filters', () => {
  it('report only what is new since the last poll, from the block after installation', async () => {
    await mine([log(1, [1])]);
    const id = await manager.newLogFilter({ addresses: [addr(1)] });
    expect(await logsOf(id)).toEqual([]);
    await mine([log(1, [1]), log(2, [1])]);
    await mine([log(1, [2])]);
    expect(brief(await logsOf(id))).toEqual(['2:1', '3:1']);
    expect(await logsOf(id)).toEqual([]);
    await mine([log(1, [3])]);
    expect(brief(await logsOf(id))).toEqual(['4:1']);
  });

  it('apply topics and the filter block range', async () => {
    const id = await manager.newLogFilter({ topics: [null, [topic(7), topic(8)]], fromBlock: 2n, toBlock: 3n });
    await mine([log(1, [0, 7])]);
    await mine([log(1, [0, 8]), log(1, [0, 9]), log(1, [8])]);
    await mine([log(2, [0, 7])]);
    await mine([log(3, [0, 7])]);
    expect(brief(await logsOf(id))).toEqual(['2:1', '3:2']);
  });

  it('report the logs of blocks a reorganisation dropped again with removed: true, then the new ones', async () => {
    const id = await manager.newLogFilter({ addresses: [addr(1)] });
    await mine([log(1, [1])]);
    const two = await mine([log(1, [2])]);
    await mine([log(1, [3]), log(2, [3])]);
    expect(brief(await logsOf(id))).toEqual(['1:1', '2:1', '3:1']);
    // A heavier side chain from block 1: blocks 2 and 3 leave, 2', 3', 4' join.
    let side = await chain.build([[log(1, [20])]], chain.blockAt(1n)!, 'side');
    side = await chain.build([[]], side, 'side');
    side = await chain.build([[log(1, [40])]], side, 'side');
    const event = reorgTo(side);
    expect(event.dropped.map((b) => b.header.number)).toEqual([3n, 2n]);
    const changes = await logsOf(id);
    expect(brief(changes)).toEqual(['2:1:removed', '3:1:removed', '2:1', '4:1']);
    expect(changes[0].blockHash).toEqual(two.hash());
    expect(changes[0].topics[0]).toEqual(topic(2));
    expect(changes[2].topics[0]).toEqual(topic(20));
    expect(await logsOf(id)).toEqual([]);
  });

  it('do not report as removed the logs of blocks they never reported', async () => {
    await mine([log(1, [1])]);
    await mine([log(1, [2])]);
    const id = await manager.newLogFilter({});
    await mine([log(1, [3])]);
    const side = await chain.build([[log(5, [5])]], chain.blockAt(1n)!, 'side');
    reorgTo(await chain.build([[]], await chain.build([[]], side, 'side'), 'side'));
    expect(brief(await logsOf(id))).toEqual(['3:1', '3:1:removed', '2:5']);
  });

  it('after a rewind, deliver a longer chain that comes back with stored ancestors', async () => {
    const id = await manager.newLogFilter({});
    await mine([log(1, [1])]);
    const two = await mine([log(2, [1])]);
    const three = await mine([log(3, [1])]);
    expect(brief(await logsOf(id))).toEqual(['1:1', '2:2', '3:3']);
    // Rewind to 1: blocks 2 and 3 drop out; the engine announces a reorg with nothing added.
    const rewind = { dropped: [three, two], added: [], commonAncestor: chain.blockAt(1n)! };
    chain.reorgTo(chain.blockAt(1n)!);
    manager.onReorg(rewind);
    manager.onNewHead(chain.blockAt(1n)!);
    // Then a child of the old block 3 arrives: 2, 3 and 4 become canonical with only a newHead for 4.
    const four = await chain.build([[log(4, [1])]], three);
    chain.reorgTo(four);
    manager.onNewHead(four);
    expect(brief(await logsOf(id))).toEqual(['2:2:removed', '3:3:removed', '2:2', '3:3', '4:4']);
  });

  it('answer getFilterLogs over their whole range without moving the poll point', async () => {
    await mine([log(1, [1])]);
    await mine([log(2, [1])]);
    const all = await manager.newLogFilter({ fromBlock: 0n, topics: [topic(1)] });
    const latestOnly = await manager.newLogFilter({ topics: [topic(1)] });
    expect(brief(await manager.filterLogs(all))).toEqual(['1:1', '2:2']);
    expect(brief(await manager.filterLogs(latestOnly))).toEqual(['2:2']);
    await mine([log(3, [1])]);
    expect(brief(await logsOf(all))).toEqual(['3:3']);
    expect(await manager.filterLogs(await manager.newBlockFilter())).toEqual([]);
  });
});

describe('block and pending-transaction filters', () => {
  it('report new canonical block hashes, including the ones a reorganisation adds', async () => {
    const id = await manager.newBlockFilter();
    const one = await mine([]);
    const two = await mine([]);
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes: [one.hash(), two.hash()] });
    const sideTwo = await chain.build([[]], one, 'side');
    const sideThree = await chain.build([[]], sideTwo, 'side');
    reorgTo(sideThree);
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes: [sideTwo.hash(), sideThree.hash()] });
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes: [] });
  });

  it('read no block of a run announced by its last one while nothing listens; deliver every one once something does', async () => {
    const read: bigint[] = [];
    start({
      blockByHash: async (hash) => {
        const block = chain.byHash(hash);
        if (block !== undefined) read.push(block.header.number);
        return block;
      },
    });
    // A bulk run of empty blocks: the chain announces only the run's last block.
    const run = async (n: number) => {
      let last: SyntheticBlock | undefined;
      for (let i = 0; i < n; i++) last = await chain.extend([]);
      manager.onNewHead(last!);
      await manager.settled();
      return last!;
    };
    await run(5);
    expect(read).toEqual([]);
    const id = await manager.newBlockFilter();
    const last = await run(3);
    expect(read).toEqual([7n, 6n]);
    const hashes = [6n, 7n, 8n].map((n) => chain.blockAt(n)!.hash());
    expect(hashes.at(-1)).toEqual(last.hash());
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes });
  });

  it('follow heads nobody listens to in their own turn, with no task; filters made after a head start after it', async () => {
    const internals = manager as unknown as { queued: number };
    // Nothing listens: each announcement is taken at once (no task queued), and the blocks between are not read.
    const heads: SyntheticBlock[] = [];
    for (let i = 0; i < 3; i++) {
      heads.push(await mine([log(1, [1])]));
      expect(internals.queued).toBe(0);
    }
    // Made in the turn of the third head's announcement: they start after it.
    const logs = manager.newLogFilter({ addresses: [addr(1)] });
    const blocks = manager.newBlockFilter();
    const ids = { logs: await logs, blocks: await blocks };
    const next = await mine([log(1, [2])]);
    expect(internals.queued).toBeGreaterThan(0);
    await manager.settled();
    expect(brief(await logsOf(ids.logs))).toEqual(['4:1']);
    expect(await manager.changes(ids.blocks)).toEqual({ kind: 'blocks', hashes: [next.hash()] });
    // A reorg back past them while nothing else listens: the filters see it as ever.
    manager.uninstall(ids.blocks);
    const sideFour = await chain.build([[log(1, [5])]], heads[2]!, 'side');
    reorgTo(await chain.build([[log(1, [6])]], sideFour, 'side'));
    await manager.settled();
    expect(brief(await logsOf(ids.logs))).toEqual(['4:1:removed', '4:1', '5:1']);
  });

  it('deliver heads announced one by one within a turn through one move, every block once and in order', async () => {
    const read: bigint[] = [];
    start({
      blockByHash: async (hash) => {
        const block = chain.byHash(hash);
        if (block !== undefined) read.push(block.header.number);
        return block;
      },
    });
    const id = await manager.newBlockFilter();
    const heads: SyntheticBlock[] = [];
    const subscribed = await manager.subscribeNewHeads((block) => heads.push(block));
    // A bulk run as the chain announces it: each block's newHead, all before the manager's next turn.
    const made: SyntheticBlock[] = [];
    for (let i = 0; i < 4; i++) made.push(await chain.extend([]));
    for (const block of made) manager.onNewHead(block);
    await manager.settled();
    // The one move, to the last head, read the blocks before it by their parents.
    expect(read).toEqual([3n, 2n, 1n]);
    expect(heads.map((b) => b.header.number)).toEqual([1n, 2n, 3n, 4n]);
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes: made.map((b) => b.hash()) });
    // A reorg between two announcements ends the move being gathered: the heads after it are a move of their own.
    const next = await chain.extend([]);
    manager.onNewHead(next);
    const side = await chain.build([[]], made[3], 'side');
    reorgTo(side);
    await manager.settled();
    expect(heads.map((b) => b.header.number)).toEqual([1n, 2n, 3n, 4n, 5n, 5n]);
    expect(await manager.changes(id)).toEqual({ kind: 'blocks', hashes: [next.hash(), side.hash()] });
    void subscribed;
  });

  it('report pending transaction hashes since the last poll', async () => {
    manager.onPendingTransaction(new Uint8Array(32).fill(9)); // before installation: not reported
    const id = await manager.newPendingTransactionFilter();
    manager.onPendingTransaction(new Uint8Array(32).fill(1));
    manager.onPendingTransaction(new Uint8Array(32).fill(2));
    expect(await manager.changes(id)).toEqual({
      kind: 'transactions',
      hashes: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)],
    });
    expect(await manager.changes(id)).toEqual({ kind: 'transactions', hashes: [] });
  });
});

describe('lifetime and limits', () => {
  it('uses random 128-bit ids and answers uninstall with false for unknown ids', async () => {
    const ids = [
      await manager.newBlockFilter(),
      await manager.newLogFilter({}),
      await manager.newPendingTransactionFilter(),
    ];
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id > 0n && id < 1n << 128n).toBe(true);
    expect(manager.uninstall(12345n)).toBe(false);
    expect(manager.uninstall(ids[0])).toBe(true);
    expect(manager.uninstall(ids[0])).toBe(false);
    expect(manager.kindOf(ids[1])).toBe('logs');
  });

  it('expires a filter after the idle timeout; every poll resets the timer', async () => {
    const minute = 60_000;
    expect(manager.timeoutMs).toBe(5 * minute);
    const id = await manager.newBlockFilter();
    const idle = await manager.newBlockFilter();
    clock += 4 * minute;
    await manager.changes(id);
    clock += 4 * minute; // 8 minutes since installation, 4 since the poll
    await expect(manager.changes(id)).resolves.toMatchObject({ kind: 'blocks' });
    await expect(manager.changes(idle)).rejects.toBeInstanceOf(FilterNotFoundError);
    clock += 5 * minute + 1;
    expect(manager.uninstall(id)).toBe(false);
    await expect(manager.changes(id)).rejects.toThrow('filter not found');
  });

  it('sweeps expired filters so they stop collecting and free their place', async () => {
    start({ maxFilters: 2, timeoutMs: 1000 });
    await manager.newBlockFilter();
    await manager.newLogFilter({});
    await expect(manager.newBlockFilter()).rejects.toThrow(FilterLimitError);
    await expect(manager.newBlockFilter()).rejects.toThrow(/at most 2/);
    clock += 1001;
    await manager.newBlockFilter();
    expect(manager.filterCount).toBe(1);
  });

  it('fails loudly, once, when a filter overflows its buffer, naming the first block to recover', async () => {
    start({ maxBufferedChanges: 3 });
    const id = await manager.newLogFilter({});
    await mine([log(1, [1])]);
    await mine([log(1, [1]), log(1, [1])]);
    await mine([log(1, [1])]); // a fourth log: over the bound
    const err = await manager.changes(id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FilterOverflowError);
    expect((err as FilterOverflowError).fromBlock).toBe(1n);
    expect((err as Error).message).toMatch(/more than 3 changes.*eth_getLogs from block 0x1/);
    await expect(manager.changes(id)).rejects.toBeInstanceOf(FilterNotFoundError);
  });
});

describe('subscriptions', () => {
  it('push new heads, logs with removals and pending transactions, and never expire', async () => {
    const heads: bigint[] = [];
    const logs: Log[] = [];
    const txs: Uint8Array[] = [];
    const h = await manager.subscribeNewHeads((b) => heads.push(b.header.number));
    const l = await manager.subscribeLogs({ addresses: [addr(1)] }, (x) => logs.push(x));
    const t = await manager.subscribePendingTransactions((x) => txs.push(x));
    await mine([log(1, [1]), log(2, [1])]);
    const two = await mine([log(1, [2])]);
    clock += 24 * 3_600_000; // a day without any poll
    const side = await chain.build([[log(1, [9])]], two, 'side');
    const sideTwo = await chain.build([[]], side, 'side');
    const three = await mine([log(1, [3])]);
    reorgTo(sideTwo);
    manager.onPendingTransaction(new Uint8Array(32).fill(4));
    await manager.settled();
    expect(heads).toEqual([1n, 2n, 3n, 3n, 4n]);
    expect(brief(logs)).toEqual(['1:1', '2:1', '3:1', '3:1:removed', '3:1']);
    expect(logs[3].blockHash).toEqual(three.hash());
    expect(txs).toHaveLength(1);
    expect([h, l, t].map((s) => s.unsubscribe())).toEqual([true, true, true]);
    expect(h.unsubscribe()).toBe(false);
    await mine([log(1, [5])]);
    await manager.settled();
    expect(heads).toHaveLength(5);
    expect(logs).toHaveLength(5);
    expect(manager.subscriptionCount).toBe(0);
  });

  it('log batches: one call per block with its matching logs in order, the same array for the same criteria', async () => {
    const batches: (readonly Log[])[] = [];
    const twins: (readonly Log[])[] = [];
    await manager.subscribeLogBatches({ addresses: [addr(1)] }, (logs) => batches.push(logs));
    await manager.subscribeLogBatches({ addresses: [addr(1)] }, (logs) => twins.push(logs));
    await mine([log(1, [1]), log(2, [1])], [log(1, [2])]);
    await mine([log(2, [3])]); // nothing for addr(1): no call
    const three = await mine([log(1, [4])]);
    const side = await chain.build(
      [[log(1, [9]), log(1, [10])]],
      (await chain.byHash(three.header.parentHash))!,
      'side',
    );
    reorgTo(side);
    await manager.settled();
    expect(batches.map((b) => brief([...b]))).toEqual([['1:1', '1:1'], ['3:1'], ['3:1:removed'], ['3:1', '3:1']]);
    expect(batches.map((b) => b.map((l) => l.topics[0][31]))).toEqual([[1, 2], [4], [4], [9, 10]]);
    expect(twins).toHaveLength(4);
    twins.forEach((b, i) => {
      expect(b).toBe(batches[i]);
    });
  });

  it('keeps delivering to the others when one listener throws', async () => {
    const seen: bigint[] = [];
    await manager.subscribeNewHeads(() => {
      throw new Error('listener failure');
    });
    await manager.subscribeNewHeads((b) => seen.push(b.header.number));
    await mine([]);
    await manager.settled();
    expect(seen).toEqual([1n]);
    expect(errors.splice(0)).toHaveLength(1);
  });
});
