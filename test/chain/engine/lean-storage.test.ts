/**
 * SLOAD and SSTORE as the lane's whole steps (src/chain/exec/lean-storage-opcodes.ts) must leave blocks exactly as
 * the library does. Random storage programs (slots small and 32-byte, values zero, small, large and read back,
 * writes that set, reset, clear and restore slots for every EIP-2200 case, mapping slots hashed with KECCAK256,
 * nested calls with little gas so the sentry fails, calls that touch empty accounts (EIP-161 deletes them), static calls that trap, reverts, short stacks, LOG0…LOG4 of
 * read values, logged readers of the environment; the lean KECCAK256 and LOG of lean-log-opcodes.ts and the
 * environment readers the lane runs inline (call-opcodes.ts `SYNC_READERS`) run in the same frames) run in random blocks through
 * the dev miner's assembly (flat state, lean EVM) and through the library's VM on the library's state manager:
 * receipts (gas, status, logs), state and receipt roots must agree, block after block. The same blocks also run
 * on an untouched copy of the library in a worker thread (its own module instances, never patched by this node).
 * Rules: the dev chain's, and Ethereum's Shanghai and Istanbul (no EIP-2929).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createBlock } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  Account,
  Address,
  KECCAK256_RLP,
  bigIntToBytes,
  bytesToHex,
  hexToBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedCommons } from '../../../src/chain/exec/commons.js';
import { BlockRunner } from '../../../src/chain/exec/block-runner.js';
import { laneStorageSteps } from '../../../src/chain/exec/lean-storage-opcodes.js';
import { ChainDB, WriteBatch } from '../../../src/chain/db/chain-db.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { DEV_ACCOUNTS, getNetwork } from '../../../src/chain/networks/index.js';
import { type OpenedState, openState } from '../../../src/chain/state/state-view.js';
import { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { seededRandom } from '../../helpers/seeded-random.js';

const keys = DEV_ACCOUNTS.slice(0, 3).map((a) => hexToBytes(a.privateKey as `0x${string}`));
const senders = DEV_ACCOUNTS.slice(0, 3).map((a) => hexToBytes(a.address as `0x${string}`));
const at = (n: number) => setLengthLeft(bigIntToBytes(BigInt(n)), 20);
const contracts = [at(0xc001), at(0xc002), at(0xc003), at(0xc004)];
const coinbase = at(0xc0ffee);
/** Existing empty accounts: a call that touches one deletes it (EIP-161's sweep, call-journal.ts `cleanup`). */
const empties = [at(0xe001), at(0xe002)];
const BIG_SLOT = (1n << 255n) + 0x1234n;
/** Slots the programs use: small ones (set in the genesis, some) and one that needs all 32 bytes. */
const SLOTS = [0n, 1n, 2n, 3n, BIG_SLOT];

const push = (n: bigint): number[] => {
  const bytes = n === 0n ? [0] : [...bigIntToBytes(n)];
  return [0x5f + bytes.length, ...bytes];
};

/** Random runtime code over storage (see the top of the file); `calls`: the contracts it may call. */
function program(random: () => number, self: number): Uint8Array {
  const int = (n: number) => Math.floor(random() * n);
  const slot = () => SLOTS[int(SLOTS.length)]!;
  const value = () => [0n, 0n, 1n, 2n, 7n, BigInt(int(1 << 30)), (1n << 256n) - 1n, 1n << 200n][int(8)]!;
  const ops: number[] = [];
  // A short stack now and then: the library's own underflow.
  if (random() < 0.08) ops.push([0x54, 0x55, 0x20, 0xa0, 0xa2][int(5)]!);
  // Gas burnt first, sometimes (a countdown loop): refunds are capped at a share of the gas used, and a large
  // enough use leaves each refund whole in the receipts' gas.
  if (random() < 0.4) {
    ops.push(0x61, ...[int(16), int(256)]);
    const dest = ops.length;
    ops.push(0x5b, 0x60, 1, 0x90, 0x03, 0x80, 0x61, dest >> 8, dest & 255, 0x57, 0x50);
  }
  for (let i = 0, n = 2 + int(9); i < n; i++) {
    const kind = int(12);
    if (kind === 0 || kind === 1) ops.push(...push(value()), ...push(slot()), 0x55);
    else if (kind === 2) {
      // Read, add one (or clear), write back: dirty slots, resets to the original.
      const s = slot();
      ops.push(...push(s), 0x54);
      if (random() < 0.5) ops.push(...push(1n), 0x01);
      else ops.push(0x50, ...push(0n));
      ops.push(...push(s), 0x55);
    } else if (kind === 3) {
      // LOG0…LOG4 of a slot's value (the logs show what SLOAD read), with topics small and large.
      const topics = int(5);
      ops.push(...push(slot()), 0x54, ...push(0n), 0x52);
      for (let t = 0; t < topics; t++) ops.push(...push(value()));
      ops.push(...push(BigInt([0, 32, 32, int(70)][int(4)]!)), ...push(BigInt(int(3))), 0xa0 + topics);
    } else if (kind === 11) {
      // LOG0 of environment readers (the library marks most of them async; the lane runs them inline).
      const readers = [0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48];
      const n = 1 + int(5);
      for (let r = 0; r < n; r++) ops.push(readers[int(readers.length)]!, ...push(BigInt(32 * r)), 0x52);
      ops.push(...push(BigInt(32 * n)), ...push(0n), 0xa0);
    } else if (kind === 9 || kind === 10) {
      // A mapping's slot, as an ERC-20 balance: keccak256(key . index), read, add, written back.
      ops.push(...push(value()), ...push(0n), 0x52, ...push(BigInt(int(3))), ...push(32n), 0x52);
      ops.push(...push(64n), ...push(0n), 0x20, 0x80, 0x54, ...push(BigInt(1 + int(5))), 0x01, 0x90, 0x55);
    } else if (kind === 4 || kind === 5) {
      // CALL or STATICCALL another contract, with little gas (the callee's SSTORE may fail its sentry) or more.
      const to =
        random() < 0.2
          ? empties[int(empties.length)]!
          : contracts[(self + 1 + int(contracts.length - 1)) % contracts.length]!;
      const gas = BigInt([1500, 2300, 2400, 5000, 9000, 30_000][int(6)]!);
      ops.push(...push(0n), ...push(0n), ...push(0n), ...push(0n));
      if (kind === 4) ops.push(...push(0n));
      ops.push(0x73, ...to, ...push(gas), kind === 4 ? 0xf1 : 0xfa, 0x50);
    } else if (kind === 6) {
      // Slot and value from the call data: words 1 and 0.
      ops.push(...push(0n), 0x35, ...push(32n), 0x35, 0x55);
    } else if (kind === 7) ops.push(...push(slot()), 0x54, 0x50);
    else ops.push(...push(value()), ...push(0n), 0x35, 0x55);
  }
  if (random() < 0.15) ops.push(...push(0n), ...push(0n), 0xfd);
  else ops.push(0x00);
  return Uint8Array.from(ops);
}

const noAncestors: EVMMockBlockchainInterface = {
  getBlock: async () => {
    throw new Error('no ancestors in this test');
  },
  putBlock: async () => {},
  shallowCopy: () => noAncestors,
};

interface Genesis {
  readonly code: string[];
  /** Per contract: [slot, value] in hex. */
  readonly storage: [string, string][][];
}
interface BlockCase {
  readonly number: bigint;
  readonly txs: Uint8Array[];
}
interface TxOutcome {
  readonly gasUsed: bigint;
  readonly status: number;
  readonly logs: string;
}
interface RunOutcome {
  readonly txs: TxOutcome[];
  readonly roots: string[];
}

const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);

function randomCase(random: () => number, common: Common): { genesis: Genesis; blocks: BlockCase[] } {
  const int = (n: number) => Math.floor(random() * n);
  const genesis: Genesis = {
    code: contracts.map((_, i) => bytesToHex(program(random, i))),
    storage: contracts.map(() =>
      SLOTS.filter(() => random() < 0.5).map((s) => [
        bytesToHex(word(s)),
        bytesToHex(bigIntToBytes(BigInt(1 + int(9)))),
      ]),
    ),
  };
  const nonces = senders.map(() => 0n);
  const blocks: BlockCase[] = [];
  for (let number = 1n; number <= 5n; number++) {
    const txs: Uint8Array[] = [];
    for (let i = 0, n = 4 + int(8); i < n; i++) {
      const from = int(senders.length);
      const gasLimit = [300_000n, 300_000n, 80_000n, 30_000n, 23_000n + BigInt(int(20_000))][int(5)]!;
      const data = new Uint8Array([...word([0n, 5n, 1n << 250n][int(3)]!), ...word(SLOTS[int(SLOTS.length)]!)]);
      const tx = createLegacyTx(
        { nonce: nonces[from]!++, to: contracts[int(contracts.length)], data, gasLimit, gasPrice: 10n ** 9n },
        { common },
      ).sign(keys[from]!);
      txs.push(tx.serialize());
    }
    blocks.push({ number, txs });
  }
  return { genesis, blocks };
}

const envOf = (number: bigint, common: Common) =>
  createBlock(
    { header: { number, coinbase, gasLimit: 30_000_000n, timestamp: 1000n + number, difficulty: 1n } },
    { common },
  );

let dir: string;
let db: ChainDB;
let store: TrieNodeStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-node-lean-storage-'));
  db = await ChainDB.open(join(dir, 'chaindata'));
  store = new TrieNodeStore(db);
});
afterAll(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function genesisRoot(common: Common, genesis: Genesis): Promise<Uint8Array> {
  const { stateManager: sm, buffer } = openState(store, common, KECCAK256_RLP);
  await sm.checkpoint();
  for (const s of senders) await sm.putAccount(new Address(s), new Account(0n, 10n ** 24n));
  for (const e of empties) await sm.putAccount(new Address(e), new Account());
  for (const [i, c] of contracts.entries()) {
    await sm.putAccount(new Address(c), new Account(1n, 0n));
    await sm.putCode(new Address(c), hexToBytes(genesis.code[i] as `0x${string}`));
    for (const [slot, value] of genesis.storage[i]!)
      await sm.putStorage(new Address(c), hexToBytes(slot as `0x${string}`), hexToBytes(value as `0x${string}`));
  }
  await sm.commit();
  const root = await sm.getStateRoot();
  const batch = new WriteBatch();
  buffer.writeTo(batch);
  await db.write(batch);
  return root;
}

/** The blocks through BlockRunner: the miner's assembly (`lean`: flat state, lean EVM) or the library's VM. */
async function runBlocks(common: Common, genesis: Genesis, blocks: BlockCase[], lean: boolean): Promise<RunOutcome> {
  const { createTxFromRLP } = await import('@ethereumjs/tx');
  let parent = await genesisRoot(common, genesis);
  let state: OpenedState | undefined;
  const out: RunOutcome = { txs: [], roots: [] };
  for (const block of blocks) {
    const runner = await BlockRunner.start({
      store,
      common,
      parentStateRoot: parent,
      envBlock: envOf(block.number, common),
      ancestors: noAncestors,
      flat: lean,
      leanEvm: lean,
      ...(state !== undefined ? { state } : {}),
    });
    for (const raw of block.txs) {
      const applied = await runner.apply(createTxFromRLP(raw, { common }));
      if (!applied.ok) throw new Error(`a transaction did not apply: ${applied.reason}`);
      const r = applied.receipt;
      const logs = r.logs.map((l) => [bytesToHex(l.address), l.topics.map(bytesToHex), bytesToHex(l.data)]);
      out.txs.push({ gasUsed: r.gasUsed, status: r.status ?? -1, logs: JSON.stringify(logs) });
    }
    const done = await runner.finish([]);
    out.roots.push(bytesToHex(done.stateRoot));
    state = done.state;
    parent = done.stateRoot;
  }
  return out;
}

/** The worker: the library's own VM on its own state manager (ESM builds loaded by path), block by block. */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
(async () => {
  const [{ createVM, runTx }, { Common, Mainnet }, { createTxFromRLP }, { createBlock }, util] = await Promise.all(
    workerData.paths.map((p) => import(pathToFileURL(p).href)),
  );
  const { Account, Address, bytesToHex, hexToBytes } = util;
  const common = new Common({ chain: Mainnet, hardfork: workerData.hardfork });
  const results = [];
  for (const { genesis: g, blocks } of workerData.cases) {
  const vm = await createVM({ common });
  const sm = vm.stateManager;
  for (const s of workerData.senders) await sm.putAccount(new Address(s), new Account(0n, 10n ** 24n));
  for (const e of workerData.empties) await sm.putAccount(new Address(e), new Account());
  for (const [i, c] of workerData.contracts.entries()) {
    await sm.putAccount(new Address(c), new Account(1n, 0n));
    await sm.putCode(new Address(c), hexToBytes(g.code[i]));
    for (const [slot, value] of g.storage[i]) await sm.putStorage(new Address(c), hexToBytes(slot), hexToBytes(value));
  }
  const out = { txs: [], roots: [] };
  for (const b of blocks) {
    const block = createBlock(
      { header: { number: b.number, coinbase: workerData.coinbase, gasLimit: 30000000n, timestamp: 1000n + b.number, difficulty: 1n } },
      { common },
    );
    let blockGasUsed = 0n;
    for (const raw of b.txs) {
      const r = await runTx(vm, { tx: createTxFromRLP(raw, { common }), block, blockGasUsed });
      blockGasUsed += r.totalGasSpent;
      const logs = r.receipt.logs.map(([a, t, d]) => [bytesToHex(a), t.map(bytesToHex), bytesToHex(d)]);
      out.txs.push({ gasUsed: r.totalGasSpent, status: r.receipt.status, logs: JSON.stringify(logs) });
    }
    out.roots.push(bytesToHex(await sm.getStateRoot()));
  }
  results.push(out);
  }
  parentPort.postMessage(results);
})().catch((err) => parentPort.postMessage(String(err && err.stack || err)));
`;

interface Case {
  readonly genesis: Genesis;
  readonly blocks: BlockCase[];
}

/** `cases` run by the untouched library in a worker thread, each on a fresh VM. */
async function untouchedLibrary(hardfork: string, cases: readonly Case[]): Promise<RunOutcome[]> {
  const require = createRequire(import.meta.url);
  const packages = ['@ethereumjs/vm', '@ethereumjs/common', '@ethereumjs/tx', '@ethereumjs/block', '@ethereumjs/util'];
  const paths = packages.map((p) => require.resolve(p));
  const workerData = { paths, hardfork, cases, senders, contracts, empties, coinbase };
  const worker = new Worker(WORKER, { eval: true, workerData });
  try {
    const answer = await new Promise<RunOutcome[] | string>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (typeof answer === 'string') throw new Error(answer);
    return answer;
  } finally {
    await worker.terminate();
  }
}

const devCommon = new SharedCommons(etcEngineRules(getNetwork('dev'))).commonAt(1n);

describe('SLOAD and SSTORE as lane steps', () => {
  const rules: [string, Common, string | undefined][] = [
    ['the dev chain', devCommon, undefined],
    ['London', new Common({ chain: Mainnet, hardfork: Hardfork.London }), 'london'],
    ['Istanbul (no EIP-2929)', new Common({ chain: Mainnet, hardfork: Hardfork.Istanbul }), 'istanbul'],
  ];
  for (const [name, common, hardfork] of rules) {
    it(`leave random storage blocks as the library does under ${name}`, async () => {
      const random = seededRandom(4100 + name.length);
      const seen = { reverted: 0, succeeded: 0, logs: 0 };
      const before = laneStorageSteps();
      const cases: Case[] = [];
      const leanRuns: RunOutcome[] = [];
      for (let round = 0; round < 5; round++) {
        const { genesis, blocks } = randomCase(random, common);
        const lean = await runBlocks(common, genesis, blocks, true);
        const library = await runBlocks(common, genesis, blocks, false);
        for (const [i, tx] of lean.txs.entries())
          expect({ round, i, ...tx }, `round ${round} tx ${i}`).toEqual({ round, i, ...library.txs[i] });
        expect(lean.roots, `round ${round}`).toEqual(library.roots);
        cases.push({ genesis, blocks });
        leanRuns.push(lean);
        for (const tx of library.txs) {
          if (tx.status === 1) seen.succeeded++;
          else seen.reverted++;
          if (tx.logs !== '[]') seen.logs++;
        }
      }
      if (hardfork !== undefined) {
        const untouched = await untouchedLibrary(hardfork, cases);
        for (const [round, lean] of leanRuns.entries()) {
          for (const [i, tx] of lean.txs.entries())
            expect({ round, i, ...tx }, `round ${round} tx ${i}`).toEqual({ round, i, ...untouched[round]!.txs[i] });
          expect(lean.roots, `round ${round}`).toEqual(untouched[round]!.roots);
        }
      }
      // Sanity: the mix has failures and successes, and the lane ran storage steps with and without awaits.
      expect(
        Object.values(seen).every((n) => n > 10),
        JSON.stringify(seen),
      ).toBe(true);
      const after = laneStorageSteps();
      expect(after.sync - before.sync).toBeGreaterThan(100);
      expect(after.awaited - before.awaited).toBeGreaterThan(10);
      // Each rule set runs ~5-15 s alone, up to ~35 s on a loaded machine.
    }, 150_000);
  }
});
