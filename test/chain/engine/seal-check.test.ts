/**
 * The seal checker (src/chain/exec/seal-checker.ts): a block this node seals is imported on its assembly's word, then
 * re-executed by @ethereumjs/vm on a worker and compared. A dev chain's honest blocks (transfers, a creation, calls
 * with logs and storage) all pass; a block whose assembly was broken on purpose (one gas too many for a plain
 * transfer, one log missing, one storage value off) is reported with the transaction and field, the head goes back to
 * its parent, and production is refused from then on. The worker's import graph holds none of the engine's narrower
 * execution modules (they patch the library's prototypes where they are loaded).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { BlockRunner } from '../../../src/chain/exec/block-runner.js';
import { FlatState } from '../../../src/chain/exec/flat-state.js';
import { PlainTransferLedger } from '../../../src/chain/exec/plain-transfers.js';
import { SealCheckFailedError } from '../../../src/chain/exec/seal-checker.js';
import { dev } from '../../../src/chain/networks/index.js';
import type { SealCheckFailedEvent } from '../../../src/chain/view/chain-events.js';
import { addresses, counterDeployData, deployCounter, encodeCounterCall, mine, signedTx, tempDir } from './fixtures.js';

const dirs: { remove: () => void }[] = [];
const chains: Blockchain[] = [];
const restores: (() => void)[] = [];

afterEach(async () => {
  for (const restore of restores.splice(0)) restore();
  for (const chain of chains.splice(0)) await chain.close();
  for (const d of dirs.splice(0)) d.remove();
});

async function openChecked(
  lag = 4,
): Promise<{ chain: Blockchain; failures: SealCheckFailedEvent[]; errors: string[] }> {
  const d = tempDir('seal-check-');
  dirs.push(d);
  const errors: string[] = [];
  const chain = await Blockchain.open({
    dataDir: d.dir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    flatState: true,
    sealChecks: { lag, network: dev, onError: (m) => errors.push(m) },
  });
  chains.push(chain);
  const failures: SealCheckFailedEvent[] = [];
  chain.on('sealCheckFailed', (e) => failures.push(e));
  return { chain, failures, errors };
}

/** Replaces `proto[name]` with `wrap(original)` until the test ends. */
function patch<T extends object, K extends keyof T>(proto: T, name: K, wrap: (original: T[K]) => T[K]): void {
  const original = proto[name];
  proto[name] = wrap(original);
  restores.push(() => {
    proto[name] = original;
  });
}

/** A deployed Counter (storage, a log per increment) and a block with a transfer to a new account and two calls. */
async function honestBlocks(chain: Blockchain): Promise<{ counter: Uint8Array; blocks: Block[] }> {
  const deploy = signedTx(chain, { from: 0, nonce: 0n, data: counterDeployData(5n), gasLimit: 600_000n });
  const first = await mine(chain, [deploy]);
  const counter = first.assembled.receipts[0]!.contractAddress!;
  const second = await mine(chain, [
    signedTx(chain, { from: 1, nonce: 0n, to: new Uint8Array(20).fill(0x77), value: 10n ** 18n }),
    signedTx(chain, {
      from: 0,
      nonce: 1n,
      to: counter,
      data: encodeCounterCall('increment', [3n]),
      gasLimit: 200_000n,
    }),
    signedTx(chain, {
      from: 2,
      nonce: 0n,
      to: counter,
      data: encodeCounterCall('increment', [0n]),
      gasLimit: 200_000n,
    }),
  ]);
  return { counter, blocks: [first.block, second.block] };
}

/** Waits for the verdicts, then for the rewind the mismatch queued (an import-queue job). */
async function settled(chain: Blockchain, failures: SealCheckFailedEvent[], expected: number): Promise<void> {
  await chain.sealChecks!.drain();
  for (let i = 0; i < 200 && failures.length < expected; i++) await new Promise((r) => setTimeout(r, 10));
}

describe('the seal checker', () => {
  it('passes honest blocks: transfers, a creation, calls with logs, storage and a revert', async () => {
    const { chain, failures, errors } = await openChecked();
    const { blocks } = await honestBlocks(chain);
    await mine(chain, []);
    await settled(chain, failures, 0);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 3, failed: 0, errors: 0, pending: 0 });
    expect(chain.getHead().header.number).toBe(3n);
    expect(blocks[1]!.transactions.length).toBe(3);
    await expect(chain.sealChecks!.room()).resolves.toBeUndefined();
  }, 60_000);

  it('checks each block of a run on the state the one before ended on, and a block on an earlier parent on its own', async () => {
    const { chain, failures, errors } = await openChecked();
    const transfer = (nonce: bigint, to: Uint8Array, atBlock?: bigint) =>
      signedTx(chain, { from: 0, nonce, to, value: 1n }, atBlock);
    const first = await mine(chain, [transfer(0n, addresses[4]!)]);
    // Sealed back to back: held and posted in runs, each block's reference carried on from its parent's.
    for (let nonce = 1n; nonce <= 4n; nonce++) await mine(chain, [transfer(nonce, addresses[4]!)]);
    await chain.sealChecks!.drain();
    // A sibling of block 2 (sender 0's nonce 1 again): its parent's state is not the one the reference ended on.
    const sibling = await mine(chain, [transfer(1n, addresses[5]!, 2n)], { parentHash: first.block.hash() });
    expect(sibling.result.status).not.toBe('known');
    await settled(chain, failures, 0);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 6, failed: 0, errors: 0, pending: 0 });
    expect(chain.getHead().header.number).toBe(5n);
  }, 60_000);

  it('carries its state across a run of empty blocks stored in bulk, resets where their rewards do not lead to the parent, and still finds a difference after a run', async () => {
    const { chain, failures, errors } = await openChecked();
    const transfer = (nonce: bigint) => signedTx(chain, { from: 0, nonce, to: addresses[4]!, value: 1n });
    const bulk = (count: number, coinbase = new Uint8Array(20).fill(0xcb)) =>
      chain.extendHead({ count, coinbase, seal: async (a) => a.seal(new Uint8Array(8), new Uint8Array(32)) });
    const readsAfter = async (work: () => Promise<unknown>): Promise<number> => {
      const before = chain.sealChecks!.stats.reads;
      await work();
      await chain.sealChecks!.drain();
      return chain.sealChecks!.stats.reads - before;
    };
    await mine(chain, [transfer(0n)]);
    await chain.sealChecks!.drain();
    // Stored without import or check (qa_mineBlocks' path), each paying the block's coinbase: the next block's parent
    // state is the last check's plus five rewards, and the worker asks this thread for nothing.
    await bulk(5);
    expect(await readsAfter(() => mine(chain, [transfer(1n)]))).toBe(0);
    // Paid to another coinbase: the rewards the worker assumes lead elsewhere; it starts on the parent's root, read here.
    await bulk(3, new Uint8Array(20).fill(0xcc));
    expect(await readsAfter(() => mine(chain, [transfer(2n)]))).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 3, failed: 0, errors: 0, pending: 0 });
    // On the carried state too, a block that differs is found.
    await bulk(4);
    patch(
      PlainTransferLedger.prototype,
      'tryApply',
      (original) =>
        async function (this: PlainTransferLedger, tx) {
          const applied = await original.call(this, tx);
          return applied === undefined ? undefined : { ...applied, gasUsed: applied.gasUsed + 1n };
        },
    );
    const bad = await mine(chain, [transfer(3n)]);
    await settled(chain, failures, 1);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.block.hash()).toEqual(bad.block.hash());
    expect(failures[0]!.differences).toContainEqual({ tx: 0, field: 'gasUsed', sealed: '21001', reference: '21000' });
    expect(chain.getHead().header.number).toBe(bad.block.header.number - 1n);
  }, 60_000);

  it("checks a contract call after each run of 99 bulk blocks (the peer bench's build row) without a read", async () => {
    const { chain, failures, errors } = await openChecked();
    const counter = await deployCounter(chain);
    await chain.sealChecks!.drain();
    const bulk = () =>
      chain.extendHead({
        count: 99,
        coinbase: new Uint8Array(20).fill(0xcb),
        seal: async (a) => a.seal(new Uint8Array(8), new Uint8Array(32)),
      });
    const readsBefore = chain.sealChecks!.stats.reads;
    // As the row: storage written, a log, a block of its own after each run; each check waits for its verdict (a
    // worker that read its way back after the run would ask this thread for the path to every account it touches).
    for (let nonce = 1n; nonce <= 3n; nonce++) {
      await bulk();
      const data = encodeCounterCall('increment', [nonce]);
      const call = signedTx(chain, { from: 0, nonce, to: counter, data, gasLimit: 200_000n });
      const { assembled } = await mine(chain, [call]);
      expect(assembled.receipts[0]!.logs).toHaveLength(1);
      await chain.sealChecks!.drain();
    }
    expect(chain.sealChecks!.stats.reads - readsBefore).toBe(0);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 4, failed: 0, errors: 0, pending: 0 });
    expect(chain.getHead().header.number).toBe(1n + 3n * 100n);
  }, 60_000);

  it('counts the waits of block production for the checker, and their time', async () => {
    const { chain, failures, errors } = await openChecked(1);
    expect(chain.sealChecks!.stats).toMatchObject({ waits: 0, waitedMs: 0 });
    await mine(chain, [signedTx(chain, { from: 0, nonce: 0n, to: addresses[4]!, value: 1n })]);
    // One block without its verdict fills a lag of 1: the next block would wait for it.
    await chain.sealChecks!.room();
    await settled(chain, failures, 0);
    await chain.sealChecks!.room();
    expect(errors).toEqual([]);
    const { waits, waitedMs } = chain.sealChecks!.stats;
    expect(waits).toBe(1);
    expect(waitedMs).toBeGreaterThan(0);
  }, 60_000);

  it('reports one gas too many on a plain transfer, rewinds the head and refuses production', async () => {
    const { chain, failures } = await openChecked();
    await honestBlocks(chain);
    patch(
      PlainTransferLedger.prototype,
      'tryApply',
      (original) =>
        async function (this: PlainTransferLedger, tx) {
          const applied = await original.call(this, tx);
          return applied === undefined ? undefined : { ...applied, gasUsed: applied.gasUsed + 1n };
        },
    );
    const bad = await mine(chain, [signedTx(chain, { from: 3, nonce: 0n, to: addresses[4], value: 1n })]);
    // Imported on the assembly's word first: the check comes after, off the answer path.
    expect(bad.result.status).toBe('head');
    await settled(chain, failures, 1);
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    expect(failure!.block.header.number).toBe(3n);
    expect(failure!.differences).toContainEqual({ tx: 0, field: 'gasUsed', sealed: '21001', reference: '21000' });
    expect(failure!.rewoundTo?.header.number).toBe(2n);
    expect(chain.getHead().header.number).toBe(2n);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 3, failed: 1 });
    await expect(chain.sealChecks!.room()).rejects.toBeInstanceOf(SealCheckFailedError);
  }, 60_000);

  it('reports a missing log', async () => {
    const { chain, failures } = await openChecked();
    const { counter } = await honestBlocks(chain);
    let dropped = false;
    patch(
      BlockRunner.prototype,
      'apply',
      (original) =>
        async function (this: BlockRunner, tx) {
          const outcome = await original.call(this, tx);
          if (outcome.ok && !dropped && outcome.receipt.logs.length > 0) {
            dropped = true;
            (outcome.receipt.logs as unknown[]).pop();
          }
          return outcome;
        },
    );
    await mine(chain, [
      signedTx(chain, {
        from: 0,
        nonce: 2n,
        to: counter,
        data: encodeCounterCall('increment', [1n]),
        gasLimit: 200_000n,
      }),
    ]);
    await settled(chain, failures, 1);
    expect(dropped).toBe(true);
    expect(failures[0]?.differences).toContainEqual({ tx: 0, field: 'logs', sealed: '0', reference: '1' });
    expect(chain.getHead().header.number).toBe(2n);
  }, 60_000);

  it('reports a log topic off, with both lists of topics', async () => {
    const { chain, failures } = await openChecked();
    const { counter } = await honestBlocks(chain);
    let changed: { sealed: string; reference: string } | undefined;
    patch(
      BlockRunner.prototype,
      'apply',
      (original) =>
        async function (this: BlockRunner, tx) {
          const outcome = await original.call(this, tx);
          const log = outcome.ok ? outcome.receipt.logs[0] : undefined;
          if (log !== undefined && changed === undefined) {
            const topics = log.topics as Uint8Array[];
            const reference = topics.map((t) => bytesToHex(t)).join(',');
            topics[topics.length - 1] = Uint8Array.from(topics.at(-1)!, (b, i) => (i === 31 ? b ^ 1 : b));
            changed = { sealed: topics.map((t) => bytesToHex(t)).join(','), reference };
          }
          return outcome;
        },
    );
    await mine(chain, [
      signedTx(chain, {
        from: 0,
        nonce: 2n,
        to: counter,
        data: encodeCounterCall('increment', [1n]),
        gasLimit: 200_000n,
      }),
    ]);
    await settled(chain, failures, 1);
    expect(changed).toBeDefined();
    // The topic, and the receipts root the sealed receipt went into; nothing else (the bloom was made before).
    expect(failures[0]?.differences).toContainEqual({ tx: 0, field: 'logs[0].topics', ...changed! });
    expect(failures[0]?.differences.map((d) => d.field)).toEqual(['logs[0].topics', 'receiptsRoot']);
    expect(chain.getHead().header.number).toBe(2n);
  }, 60_000);

  it('checks a block whose transactions build on each other (one sender, one slot) under one block checkpoint, and finds a storage value off in its last transaction', async () => {
    const { chain, failures, errors } = await openChecked();
    const { counter } = await honestBlocks(chain);
    const increment = (nonce: bigint, by: bigint) =>
      signedTx(chain, { from: 0, nonce, to: counter, data: encodeCounterCall('increment', [by]), gasLimit: 200_000n });
    // Each reads the slot and the nonce the one before wrote (only the block's commit puts them in the trie), and
    // each one's SSTORE is priced on the slot's value at its own start (EIP-2200's original value).
    await mine(chain, [increment(2n, 1n), increment(3n, 2n), increment(4n, 0n)]);
    await settled(chain, failures, 0);
    expect(errors).toEqual([]);
    expect(failures).toEqual([]);
    expect(chain.sealChecks!.stats).toMatchObject({ checked: 3, failed: 0, errors: 0 });
    let writes = 0;
    // From the block's second storage write on, each value is off by a bit, through either write path (the lean
    // SSTORE writes without an await: lean-storage-opcodes.ts).
    const offFromSecond = (value: Uint8Array) =>
      ++writes < 2
        ? value
        : value.length === 0
          ? Uint8Array.of(1)
          : Uint8Array.from(value, (b, i) => (i === 0 ? b ^ 1 : b));
    patch(
      FlatState.prototype,
      'putStorage',
      (original) =>
        async function (this: FlatState, address, key, value) {
          return original.call(this, address, key, offFromSecond(value));
        },
    );
    patch(
      FlatState.prototype,
      'putKnownStorage',
      (original) =>
        function (this: FlatState, address, key, value) {
          return original.call(this, address, key, offFromSecond(value));
        },
    );
    await mine(chain, [
      signedTx(chain, { from: 1, nonce: 1n, to: addresses[4], value: 1n }),
      increment(5n, 1n),
      increment(6n, 1n),
    ]);
    await settled(chain, failures, 1);
    expect(writes).toBeGreaterThanOrEqual(2);
    const fields = failures[0]?.differences.map((d) => d.field) ?? [];
    expect(fields).toContain('stateRoot');
    expect(fields.some((f) => f.includes('.storage['))).toBe(true);
    expect(chain.getHead().header.number).toBe(3n);
  }, 60_000);

  it('reports a storage value off, with the slot that differs', async () => {
    const { chain, failures } = await openChecked();
    const { counter } = await honestBlocks(chain);
    const off = (value: Uint8Array) =>
      value.length === 0 ? Uint8Array.of(1) : Uint8Array.from(value, (b, i) => (i === value.length - 1 ? b ^ 1 : b));
    patch(
      FlatState.prototype,
      'putStorage',
      (original) =>
        async function (this: FlatState, address, key, value) {
          return original.call(this, address, key, off(value));
        },
    );
    // The lean SSTORE's write without an await (lean-storage-opcodes.ts).
    patch(
      FlatState.prototype,
      'putKnownStorage',
      (original) =>
        function (this: FlatState, address, key, value) {
          return original.call(this, address, key, off(value));
        },
    );
    await mine(chain, [
      signedTx(chain, {
        from: 0,
        nonce: 2n,
        to: counter,
        data: encodeCounterCall('increment', [1n]),
        gasLimit: 200_000n,
      }),
    ]);
    await settled(chain, failures, 1);
    const fields = failures[0]?.differences.map((d) => d.field) ?? [];
    expect(fields).toContain('stateRoot');
    expect(fields.some((f) => f.includes('.storage['))).toBe(true);
    expect(chain.getHead().header.number).toBe(2n);
  }, 60_000);
});

describe('the seal-check worker', () => {
  it('imports none of the engine modules that patch or replace the library execution paths', () => {
    const narrow = [
      'call-deadline',
      'sync-step',
      'sender-address',
      'jump-analysis-cache',
      'call-frames',
      'call-opcodes',
      'call-journal',
      'plain-transfers',
      'flat-state',
      'warm-state',
      'block-runner',
      'step-probe',
      'state-view',
    ];
    const here = dirname(fileURLToPath(import.meta.url));
    const entry = resolve(here, '../../../src/chain/exec/seal-check-worker.ts');
    const seen = new Set<string>();
    const walk = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^import\s+(?!type\b)[^'"]*['"](\.[^'"]+)['"]/gm)) {
        walk(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
      }
    };
    walk(entry);
    const reached = [...seen].map((f) => f.replace(/^.*\/src\/chain\//, ''));
    expect(reached).toContain('exec/seal-check-worker.ts');
    for (const name of narrow) expect(reached.filter((f) => f.endsWith(`/${name}.ts`))).toEqual([]);
  });
});
