/**
 * The random-block differential harness (issue 40): blocks of random transactions (random-txs.ts) made by an engine
 * under test, then run by the reference (reference.ts, a plain @ethereumjs/vm) and compared block by block: state
 * root, receipts root, bloom, gas used, every receipt (status, cumulative gas, gas, logs, bloom, created address),
 * the accounts and slots the engine's read views give, and for a sample of transactions the engine's struct logger
 * and callTracer answers against traces the reference builds from @ethereumjs's own events (reference-tracer.ts).
 *
 * An engine under test is a `BlockSubject`: how to open it. A new narrow path of execution is covered by adding a
 * subject that turns it on (random-blocks.test.ts lists them); eth_call paths are `CallSubject`s.
 */
import { performance } from 'node:perf_hooks';
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import { expect } from 'vitest';
import type { ChainEngine } from '../../../src/chain/engine/engine.js';
import type { CallMessage, CallResult } from '../../../src/chain/exec/call.js';
import { traceTransaction } from '../../../src/chain/index.js';
import { ReferenceChain } from './reference.js';
import { SENDER_ADDRESSES, TxGenerator } from './random-txs.js';

export interface BlockSubject {
  readonly name: string;
  /** Opens the engine under test on an empty datadir (a dev chain whose miner seals with the dev policy). */
  open(dataDir: string): Promise<ChainEngine>;
  /** What this subject's run does differently (fewer traces, a fixed block count for its fork schedule). */
  readonly options?: Partial<RunOptions>;
  /** The EVM rule sets (Common hardfork names) its blocks must run under, in order. */
  readonly rules?: readonly string[];
}

export interface CallSubject {
  readonly name: string;
  /** eth_call of `msg` on the state after block `number`, the way this path answers it. */
  call(engine: ChainEngine, number: bigint, msg: CallMessage): Promise<CallResult>;
}

export interface RunOptions {
  readonly seed: number;
  readonly blocks: number;
  /** Import these blocks (another run's `made`, same seed and count) instead of mining. */
  readonly importing?: readonly Block[];
  /** Transactions traced and compared per block (the first, the last, one between); default 2. */
  readonly tracesPerBlock?: number;
  /** Random eth_calls compared after the blocks, on random blocks' states. */
  readonly calls?: number;
  readonly callSubjects?: readonly CallSubject[];
}

export interface RunSummary {
  readonly blocks: number;
  readonly transactions: number;
  readonly failed: number;
  readonly traced: number;
  readonly calls: number;
  readonly created: number;
  readonly logs: number;
  /** Opcodes run and errors met in the blocks (reference.ts's counts), sorted by name. */
  readonly coverage: Record<string, number>;
  /** The Common hardfork names the blocks ran under, in order of first use. */
  readonly rules: readonly string[];
  /** The blocks compared (sealed by the engine's miner, or imported). */
  readonly made: readonly Block[];
  /** Wall time of each phase, and the process's CPU time over the run. */
  readonly ms: Readonly<Record<'mine' | 'reference' | 'compare' | 'traces' | 'calls' | 'cpu', number>>;
}

const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : bytesToHex(b));

/**
 * The transactions of `count` random blocks on genesis (numbers 1…count, each signed under its block's transaction
 * rules), and whether each is sealed by automine (one transaction).
 */
function planBlocks(
  gen: TxGenerator,
  count: number,
  commonAt: (n: bigint) => Common,
): { txs: TypedTransaction[]; automine: boolean }[] {
  return Array.from({ length: count }, (_, b) => {
    const automine = gen.random() < 0.3;
    const length = automine ? 1 : 2 + Math.floor(gen.random() * 9);
    const common = commonAt(BigInt(b + 1));
    return { txs: Array.from({ length }, () => gen.next(common)), automine };
  });
}

/** Seals the planned blocks with `engine`'s dev miner; returns them in order. */
async function mineBlocks(engine: ChainEngine, plan: ReturnType<typeof planBlocks>): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const [b, { txs, automine }] of plan.entries()) {
    if (automine) {
      // The send answers once its block is the head (the dev node's eth_sendRawTransaction).
      engine.miner.start();
      const sent = await engine.submit(txs[0]!);
      expect(sent.status, `block ${b}: pool refused ${hex(txs[0]!.hash())}`).toBe('pending');
      await sent.settled;
      await engine.miner.stop();
    } else {
      for (const tx of txs) {
        const sent = await engine.submit(tx);
        expect(sent.status, `block ${b}: pool refused ${hex(tx.hash())}`).toBe('pending');
      }
      await engine.miner.mineBlocks(1);
    }
    const head = engine.chain.getHead();
    // Every transaction in: the generator counts nonces on it.
    expect(head.transactions.map((t) => hex(t.hash())).sort()).toEqual(txs.map((t) => hex(t.hash())).sort());
    blocks.push(head);
  }
  return blocks;
}

/** Imports blocks made elsewhere through `engine`'s ordinary import (validated, executed on its own state). */
async function importBlocks(engine: ChainEngine, made: readonly Block[]): Promise<Block[]> {
  const blocks: Block[] = [];
  for (const block of made) {
    const result = await engine.chain.importBlock(engine.chain.decodeBlock(block.serialize()));
    expect(result.status, `import of block ${block.header.number}`).toBe('head');
    blocks.push(engine.chain.getHead());
  }
  return blocks;
}

/**
 * Makes random blocks with `engine`'s dev miner (or imports `opts.importing`), runs them through the reference and
 * compares; throws (expect) at the first difference, naming the seed, block and transaction.
 */
export async function runDifferential(engine: ChainEngine, opts: RunOptions): Promise<RunSummary> {
  const gen = new TxGenerator(opts.seed);
  const genesis = (await engine.chain.getBlock(0n))!;
  const reference = await ReferenceChain.open(engine.definition, genesis);
  const cpuStart = process.cpuUsage();
  const clock = { mine: 0, reference: 0, compare: 0, traces: 0, calls: 0, cpu: 0 };
  let t = performance.now();
  const lap = (phase: keyof typeof clock) => {
    const now = performance.now();
    clock[phase] += Math.round(now - t);
    t = now;
  };
  const plan = planBlocks(gen, opts.blocks, (n) => engine.chain.txCommonAt(n));
  const blocks =
    opts.importing === undefined ? await mineBlocks(engine, plan) : await importBlocks(engine, opts.importing);
  lap('mine');
  const summary = {
    blocks: blocks.length,
    transactions: 0,
    failed: 0,
    traced: 0,
    calls: 0,
    created: 0,
    logs: 0,
    coverage: {} as Record<string, number>,
    ms: clock,
    rules: [...new Set(blocks.map((b) => reference.commonAt(b.header.number).hardfork()))],
    made: blocks,
  };
  for (const block of blocks) {
    const n = block.header.number;
    const where = `seed ${opts.seed}, block ${n}`;
    const { result } = await reference.runBlock(block.serialize(), n);
    lap('reference');
    const receipts = (await engine.chain.getReceipts(block.hash()))!;
    expect(receipts.length, where).toBe(block.transactions.length);
    for (let i = 0; i < receipts.length; i++) {
      const mine = receipts[i]!;
      const ref = result.receipts[i]!;
      const run = result.results[i]!;
      const at = `${where}, tx ${i} (${hex(block.transactions[i]!.hash())})`;
      expect(
        {
          status: mine.status,
          cumulativeGasUsed: mine.cumulativeGasUsed,
          gasUsed: mine.gasUsed,
          logs: mine.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) })),
          logsBloom: hex(mine.logsBloom),
          contractAddress: hex(mine.contractAddress),
          from: hex(mine.from),
        },
        at,
      ).toEqual({
        status: 'status' in ref ? ref.status : undefined,
        cumulativeGasUsed: ref.cumulativeBlockGasUsed,
        gasUsed: run.totalGasSpent,
        logs: ref.logs.map(([address, topics, data]) => ({
          address: hex(address),
          topics: topics.map(hex),
          data: hex(data),
        })),
        logsBloom: hex(ref.bitvector),
        contractAddress: hex(run.createdAddress?.bytes),
        from: hex(block.transactions[i]!.getSenderAddress().bytes),
      });
      summary.transactions++;
      if (mine.status === 0) summary.failed++;
      if (mine.contractAddress !== undefined && mine.status === 1) summary.created++;
      summary.logs += mine.logs.length;
    }
    expect(
      {
        stateRoot: hex(block.header.stateRoot),
        receiptsRoot: hex(block.header.receiptTrie),
        logsBloom: hex(block.header.logsBloom),
        gasUsed: block.header.gasUsed,
      },
      where,
    ).toEqual({
      stateRoot: hex(result.stateRoot),
      receiptsRoot: hex(result.receiptsRoot),
      logsBloom: hex(result.logsBloom),
      gasUsed: result.gasUsed,
    });
    await compareReads(engine, reference, gen, n, where);
    lap('compare');
    // A spread of positions: the first, the last, others by the block number.
    const count = block.transactions.length;
    const picks = new Set([0, count - 1, Number(n * 7n) % count]);
    for (const i of [...picks].slice(0, opts.tracesPerBlock ?? 2)) {
      await compareTraces(engine, reference, block, i, `${where}, tx ${i}`);
      summary.traced++;
    }
    lap('traces');
  }
  const head = engine.chain.getHead().header.number;
  for (let c = 0; c < (opts.calls ?? 0); c++) {
    // Every block's state in turn (each rule set of a run across forks), the head's most.
    const number = c % 3 === 0 ? head : 1n + (BigInt(c) % head);
    const msg = gen.call();
    const expected = await reference.call(number, msg);
    for (const subject of opts.callSubjects ?? []) {
      const got = await subject.call(engine, number, msg);
      expect(callJson(got), `seed ${opts.seed}, call ${c} on block ${number} (${subject.name})`).toEqual(
        callJson(expected),
      );
    }
    summary.calls++;
  }
  lap('calls');
  const cpu = process.cpuUsage(cpuStart);
  clock.cpu = Math.round((cpu.user + cpu.system) / 1000);
  for (const key of [...reference.coverage.keys()].sort()) summary.coverage[key] = reference.coverage.get(key)!;
  return summary;
}

function callJson(r: CallResult) {
  return {
    returnData: hex(r.returnData),
    gasUsed: r.gasUsed,
    reverted: r.reverted,
    error: r.error,
    logs: r.logs.map((l) => ({ address: hex(l.address), topics: l.topics.map(hex), data: hex(l.data) })),
    createdAddress: hex(r.createdAddress),
  };
}

/** The engine's read view of the state after block `n` (its flat state, warm caches) against the reference's trie. */
async function compareReads(
  engine: ChainEngine,
  reference: ReferenceChain,
  gen: TxGenerator,
  n: bigint,
  where: string,
) {
  const view = (await engine.chain.stateAt(n))!;
  const sm = await reference.stateAt(n);
  const coinbase = (await engine.chain.getHeader((await engine.chain.getBlock(n))!.hash()))!.coinbase.bytes;
  const accounts = [...SENDER_ADDRESSES, ...gen.contracts, coinbase];
  const slots = [0, 1, 2, 3, 4, 5, 6, 7, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff].map((s) => {
    const k = new Uint8Array(32);
    k[31] = s;
    return k;
  });
  const word = (b: Uint8Array) => (b.length === 0 ? 0n : BigInt(bytesToHex(b)));
  for (const a of accounts) {
    const address = new Address(a);
    const account = await sm.getAccount(address);
    const expected = {
      balance: account?.balance ?? 0n,
      nonce: account?.nonce ?? 0n,
      code: hex(await sm.getCode(address)),
      slots: [] as bigint[],
    };
    const got = {
      balance: await view.getBalance(a),
      nonce: await view.getNonce(a),
      code: hex(await view.getCode(a)),
      slots: [] as bigint[],
    };
    if (gen.contracts.some((c) => hex(c) === hex(a))) {
      for (const s of slots) {
        expected.slots.push(word(await sm.getStorage(address, s)));
        got.slots.push(word(await view.getStorageAt(a, s)));
      }
    }
    expect(got, `${where}: account ${hex(a)}`).toEqual(expected);
  }
}

/** JSON with every object's keys sorted: equal values give equal strings whatever order their fields were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

/** Fast for long traces (a deep `toEqual` of 200,000 entries takes seconds); on a difference, the first entry that differs. */
function expectSameTrace(got: unknown, expected: unknown, where: string): void {
  if (canonical(got) === canonical(expected)) return;
  const logs = (v: unknown) => (v as { structLogs?: unknown[] }).structLogs;
  const [a, b] = [logs(got), logs(expected)];
  if (a !== undefined && b !== undefined) {
    const at = a.findIndex((entry, i) => canonical(entry) !== canonical(b[i]));
    if (at >= 0) expect({ entry: at, ...(a[at] as object) }, where).toEqual({ entry: at, ...(b[at] as object) });
  }
  expect(JSON.parse(JSON.stringify(got)), where).toEqual(expected);
}

/** debug_traceTransaction (struct logger, with memory on odd transactions, and callTracer) against the reference's traces. */
async function compareTraces(
  engine: ChainEngine,
  reference: ReferenceChain,
  block: Block,
  index: number,
  where: string,
) {
  const hash = block.transactions[index]!.hash();
  const withMemory = index % 2 === 1;
  const ref = await reference.trace(block.header.number, index, withMemory);
  const structLogs = await traceTransaction(engine.chain, hash, withMemory ? { logger: { enableMemory: true } } : {});
  expectSameTrace(structLogs, ref.structLogs, `${where}: struct logger`);
  const callFrame = await traceTransaction(engine.chain, hash, { tracer: 'callTracer' });
  expectSameTrace(callFrame, ref.callFrame, `${where}: callTracer`);
}
