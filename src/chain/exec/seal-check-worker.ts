/**
 * Worker-thread entry of the seal checker (seal-checker.ts): re-executes each block this node sealed with
 * @ethereumjs/vm's own `runTx` on a `MerkleStateManager` at the parent's state root, and compares the receipts, gas,
 * bloom, receipts root and state root with what the sealed block claims.
 *
 * Nothing of the engine's narrower execution reaches this thread: no plain-transfer shortcut, no lean call frames, no
 * inline steps, no flat or warm state, no sender-address or jump-analysis patches (those are installed on the
 * library's prototypes by the modules that define them, and this entry imports none of them;
 * test/chain/engine/seal-check.test.ts checks its import graph). Only the chain's rules (the Common, the rewards
 * the main thread sends) and the header codec are the engine's.
 *
 * The trie is read through the main thread by node hash (it alone has LevelDB open); nodes are content-addressed, so
 * what the worker wrote for the previous block and what it was sent stay valid for every later state, kept in an LRU.
 */
import type { BlockHeaderBytes } from '@ethereumjs/block';
import { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import {
  Address,
  type BatchDBOp,
  bytesToHex,
  type DB,
  equalsBytes,
  KECCAK256_NULL,
  ValueEncoding,
} from '@ethereumjs/util';
import { createVM, encodeReceipt, runTx, type VM } from '@ethereumjs/vm';
import { parentPort, workerData } from 'node:worker_threads';
import { BlockCodec } from '../codec/block-codec.js';
import { Lru } from '../db/lru.js';
import type { NetworkDefinition } from '../networks/types.js';
import { evmRulesAt } from '../rules/evmRules.js';
import { AskBatcher } from './ask-batcher.js';
import { creditRewards } from './credit-rewards.js';
import { withoutSenderCodeCheck } from './impersonated-run.js';
import { sharedCommon } from './shared-common.js';
import { currentThreadId, lowerThreadPriority } from '../workers/thread-priority.js';
import type {
  FromSealWorker,
  NodeAnswer,
  NodeAskItem,
  SealCheckJob,
  SealCheckSetup,
  SealDifference,
  SealVerdict,
  ToSealWorker,
} from './seal-check-protocol.js';

const port = parentPort!;

// The checks are background work: on Linux this thread alone runs at a lower priority, below the main thread and
// V8's platform threads (PLATFORM_NICE; they also compile this isolate's code), so it takes the cores they leave.
// Sent-and-mined row on fresh nodes (results/transfer-server-time.md round 18): with this worker at 10 and those
// threads at 5 (before: 5 and 0), the main thread waited for a core 1.2-3x less per transfer and the row ran 1.1-1.5x
// faster in 5 of 6 pairs; the other way round (10 above 5) it did not. Not the lowest (19), which on a machine kept
// busy by other work (a test runner beside a dev node) starved it; when it falls behind, the lag bound holds the miner
// back until it catches up. Elsewhere it keeps the process's priority.
const SEAL_CHECK_NICE = 10;
const tid = currentThreadId();
if (tid !== undefined) lowerThreadPriority(tid, SEAL_CHECK_NICE);
const setup = workerData as SealCheckSetup;
const network: NetworkDefinition = {
  ...setup.network,
  genesis: { ...setup.network.genesis, loadAlloc: () => Promise.resolve([]) },
};
// One Common per rule set, as the call workers build them (shared-common.ts: the library's parameter sets applied once,
// not again by every header and transaction that copies it); the VM's is its own copy.
const commonAt = (number: bigint): Common => sharedCommon(evmRulesAt(network, number));
const codec = new BlockCodec(commonAt, commonAt, setup.checkpointing);
const post = (message: FromSealWorker): void => port.postMessage(message);

// ---------------------------------------------------------------- reads through the main thread

// The asks of one turn (a trie walk's level) go as one message; a failed batch fails every ask in it.
const asks = new AskBatcher<NodeAskItem, Uint8Array | null>(
  (id, _key, items) => post({ kind: 'reads', id, items }),
  queueMicrotask,
);
const ask = async (item: NodeAskItem): Promise<Uint8Array | null> => (await asks.ask('', item)) ?? null;
const answered = (message: NodeAnswer): void => asks.answer(message.id, message.values, () => message.error);

const nodes = new Lru<string, Uint8Array>(setup.nodeCache);

/** The trie's database: what this worker holds, else the main thread's node (or code) under that key. */
class RemoteNodes implements DB<string, Uint8Array> {
  async get(key: string): Promise<Uint8Array | undefined> {
    const held = nodes.get(key);
    if (held !== undefined) return held;
    const value = await ask(['n', key]);
    if (value === null) return undefined;
    nodes.set(key, value);
    return value;
  }
  async put(key: string, value: Uint8Array): Promise<void> {
    nodes.set(key, value);
  }
  async del(): Promise<void> {}
  async batch(ops: BatchDBOp<string, Uint8Array>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') nodes.set(op.key, op.value);
  }
  shallowCopy(): DB<string, Uint8Array> {
    return this;
  }
  async open(): Promise<void> {}
}
const db = new RemoteNodes();

/** A state manager that notes which accounts and slots it wrote: on a root mismatch they are compared one by one. */
class NotingStateManager extends MerkleStateManager {
  readonly written = new Map<string, { address: Address; slots: Map<string, Uint8Array> }>();
  private note(address: Address): { slots: Map<string, Uint8Array> } {
    const key = address.toString();
    let entry = this.written.get(key);
    if (entry === undefined) this.written.set(key, (entry = { address, slots: new Map() }));
    return entry;
  }
  override async putAccount(address: Address, account: Parameters<MerkleStateManager['putAccount']>[1]) {
    this.note(address);
    return super.putAccount(address, account);
  }
  override async deleteAccount(address: Address) {
    this.note(address);
    return super.deleteAccount(address);
  }
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array) {
    this.note(address).slots.set(bytesToHex(key), key);
    return super.putStorage(address, key, value);
  }
  override async putCode(address: Address, code: Uint8Array) {
    this.note(address);
    return super.putCode(address, code);
  }
}

function stateAt(common: Common, root: Uint8Array): NotingStateManager {
  const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common, root });
  // The library's own caches (its client's setting): writes reach the trie once per block instead of once per put.
  return new NotingStateManager({ common, trie, caches: new Caches() });
}

// ---------------------------------------------------------------- one block

/**
 * One VM per rule set, reset to each block's parent state (`setStateRoot`: the library's state manager holds no cache
 * here, so nothing of the previous block survives but the trie nodes, which are content-addressed). createVM per
 * block cost the worker about as much as a small block's execution.
 */
interface Reference {
  readonly vm: VM;
  readonly sm: NotingStateManager;
  job: SealCheckJob | undefined;
  /** The state root its last check ended on, when that check found no difference at all. */
  after: Uint8Array | undefined;
  /** The number of the block that check was of. */
  afterNumber: bigint;
}
const references = new Map<Common, Reference>();

async function referenceFor(common: Common, job: SealCheckJob, number: bigint, fresh = false): Promise<Reference> {
  let ref = references.get(common);
  if (ref === undefined) {
    const sm = stateAt(common, job.parentRoot);
    const ancestors: EVMMockBlockchainInterface = {
      getBlock: async (n: number) => {
        const hash = (await ask(['h', ref!.job!.id, BigInt(n)])) ?? new Uint8Array(32);
        return { hash: () => hash } as unknown as Block;
      },
      putBlock: async () => {},
      shallowCopy: () => ancestors,
    };
    const vm = await createVM({ common: common.copy(), stateManager: sm, blockchain: ancestors });
    ref = { vm, sm, job, after: undefined, afterNumber: 0n };
    references.set(common, ref);
  }
  ref.job = job;
  // The child of the block checked last (a run of blocks, or one sent after another) starts on the state that check
  // ended on, caches and all, as the library's runBlock carries them from block to block: no reset, no re-reads.
  // So does a block after a run of unchecked empty blocks, when their rewards lead there (acrossEmptyRun).
  // Taken before any await: a guess that throws half-way leaves the state credited, so nothing may carry it on.
  const after = ref.after;
  ref.after = undefined;
  const carried =
    after !== undefined && (equalsBytes(after, job.parentRoot) || (await acrossEmptyRun(ref, job, number)));
  ref.sm.written.clear();
  if (carried) return ref;
  try {
    await ref.sm.setStateRoot(job.parentRoot);
  } catch (err) {
    // A check that failed half-way may leave a checkpoint open: start that rule set over once.
    references.delete(common);
    if (fresh) throw err;
    return referenceFor(common, job, number, true);
  }
  return ref;
}

/**
 * Whether the state the last check ended on, credited with this block's rewards once for each block between the
 * two (a bulk run of empty blocks, as qa_mineBlocks makes, stored without import or check), has the root of this
 * block's parent. A root names the whole state, so a match makes the carried state the parent's exactly, whatever
 * led there; otherwise (another coinbase, a reward era crossed, a dev state edit, blocks with transactions) the
 * caller resets to the parent's root as before and the credits made here are dropped with the caches. Without it,
 * every block after a run re-read the path to the coinbase through the main thread and lost the warm caches.
 */
async function acrossEmptyRun(ref: Reference, job: SealCheckJob, number: bigint): Promise<boolean> {
  const blocks = number - 1n - ref.afterNumber;
  if (blocks < 1n || job.rewards.length === 0) return false;
  await creditRewards(
    ref.sm,
    job.rewards.map(({ address, amount }) => ({ address, amount: amount * blocks })),
  );
  return equalsBytes(await ref.sm.getStateRoot(), job.parentRoot);
}

type Compared = Uint8Array | bigint | number | string | undefined;
const hex = (v: Compared): string => (v === undefined ? 'none' : typeof v === 'object' ? bytesToHex(v) : String(v));
const hexList = (list: readonly Uint8Array[]): string => list.map(hex).join(',');
/** Equal as their text would be (`hex`), without making it: most fields of most blocks are equal. */
function same(a: Compared, b: Compared): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return equalsBytes(a, b);
  if (typeof a === typeof b) return a === b;
  return hex(a) === hex(b);
}
const sameList = (a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean =>
  a.length === b.length && a.every((x, i) => equalsBytes(x, b[i]!));

async function check(job: SealCheckJob): Promise<SealDifference[]> {
  const header = codec.header(RLP.decode(job.header) as unknown as BlockHeaderBytes);
  // The rule set's shared Common (a header holds a copy of it): the key of the VM kept for that rule set.
  const common = commonAt(header.number);
  const impersonated = new Map(job.impersonated.map(([i, sender]) => [i, new Address(sender)]));
  const txs: TypedTransaction[] = job.txs.map((bytes, i) =>
    createTxFromRLP(bytes, { common, freeze: !impersonated.has(i) }),
  );
  for (const [i, sender] of impersonated)
    (txs[i] as { getSenderAddress: () => Address }).getSenderAddress = () => sender;
  const block = new Block(header, txs, [], undefined, { common });
  const ref = await referenceFor(common, job, header.number);
  const { vm, sm } = ref;
  const out: SealDifference[] = [];
  // Compared as values, put into text only when they differ (a one-transfer block's blooms alone are 2 KiB of hex).
  const differ = (field: string, sealed: Compared, reference: Compared, tx?: number) => {
    if (!same(sealed, reference))
      out.push({ ...(tx !== undefined ? { tx } : {}), field, sealed: hex(sealed), reference: hex(reference) });
  };
  const receiptTrie = new MerklePatriciaTrie({ common });
  const bloom = new Uint8Array(256);
  let gasUsed = 0n;
  // One checkpoint around the block, as the library's runBlock sets one: the transactions' and the rewards' writes
  // reach the trie once, at the block's commit, not at each transaction's (the sender, the coinbase and a contract
  // were put and hashed into the trie again for every transaction, and the coinbase once more for the rewards).
  await vm.evm.journal.checkpoint();
  let committed = false;
  try {
    for (let i = 0; i < txs.length; i++) {
      const tx = txs[i]!;
      const sealed = job.receipts[i];
      let result: Awaited<ReturnType<typeof runTx>>;
      try {
        const run = () => runTx(vm, { tx, block, blockGasUsed: gasUsed });
        const sender = impersonated.get(i);
        result = await (sender === undefined ? run() : withoutSenderCodeCheck(sm, sender, run));
      } catch (err) {
        differ('applies', 'yes', `no: ${err instanceof Error ? err.message : String(err)}`, i);
        return out;
      }
      gasUsed += result.totalGasSpent;
      const r = result.receipt;
      await receiptTrie.put(RLP.encode(i), encodeReceipt(r, tx.type));
      for (let b = 0; b < 256; b++) bloom[b]! |= r.bitvector[b]!;
      if (sealed === undefined) {
        differ('receipt', 'none', 'one', i);
        continue;
      }
      if ('status' in r) differ('status', sealed.status, r.status, i);
      else differ('receipt stateRoot', sealed.stateRoot, (r as { stateRoot: Uint8Array }).stateRoot, i);
      differ('gasUsed', sealed.gasUsed, result.totalGasSpent, i);
      differ('cumulativeGasUsed', sealed.cumulativeGasUsed, r.cumulativeBlockGasUsed, i);
      differ('contractAddress', sealed.contractAddress, result.createdAddress?.bytes, i);
      differ('logs', sealed.logs.length, r.logs.length, i);
      r.logs.forEach(([address, topics, data], l) => {
        const log = sealed.logs[l];
        if (log === undefined) return;
        differ(`logs[${l}].address`, log.address, address, i);
        if (!sameList(log.topics, topics)) differ(`logs[${l}].topics`, hexList(log.topics), hexList(topics), i);
        differ(`logs[${l}].data`, log.data, data, i);
      });
      differ('logsBloom', sealed.logsBloom, r.bitvector, i);
    }
    differ('transactions', job.receipts.length, txs.length);
    await creditRewards(sm, job.rewards);
    await vm.evm.journal.commit();
    committed = true;
  } finally {
    // A transaction the reference refused (or a throw): the block's writes go; the next check resets to its parent.
    if (!committed) await vm.evm.journal.revert();
  }
  const stateRoot = await sm.getStateRoot();
  differ('gasUsed', header.gasUsed, gasUsed);
  differ('logsBloom', header.logsBloom, bloom);
  differ('receiptsRoot', header.receiptTrie, receiptTrie.root());
  if (!equalsBytes(header.stateRoot, stateRoot)) {
    differ('stateRoot', header.stateRoot, stateRoot);
    out.push(...(await stateDifferences(common, sm, header.stateRoot)));
  }
  if (out.length === 0) {
    ref.after = stateRoot;
    ref.afterNumber = header.number;
  }
  return out;
}

/** Where the sealed state and the reference's differ, among the accounts and slots the reference wrote (a few). */
async function stateDifferences(
  common: Common,
  reference: NotingStateManager,
  sealedRoot: Uint8Array,
): Promise<SealDifference[]> {
  const sealed = stateAt(common, sealedRoot);
  const out: SealDifference[] = [];
  for (const { address, slots } of reference.written.values()) {
    if (out.length >= 8) break;
    const [a, b] = [await sealed.getAccount(address), await reference.getAccount(address)];
    const field = (name: string) => `${address.toString()}.${name}`;
    const push = (name: string, s: string, r: string) => {
      if (s !== r) out.push({ field: field(name), sealed: s, reference: r });
    };
    push('exists', String(a !== undefined), String(b !== undefined));
    push('nonce', hex(a?.nonce), hex(b?.nonce));
    push('balance', hex(a?.balance), hex(b?.balance));
    push('codeHash', hex(a?.codeHash ?? KECCAK256_NULL), hex(b?.codeHash ?? KECCAK256_NULL));
    for (const [name, slot] of slots) {
      const [s, r] = [await sealed.getStorage(address, slot), await reference.getStorage(address, slot)];
      push(`storage[${name}]`, hex(s), hex(r));
    }
  }
  return out;
}

// ---------------------------------------------------------------- the queue: one block at a time, in order

let queue: Promise<unknown> = Promise.resolve();

port.on('message', (message: ToSealWorker) => {
  if (message.kind === 'reads') {
    answered(message);
    return;
  }
  queue = queue.then(async () => {
    const verdicts: SealVerdict[] = [];
    for (const job of message.jobs) {
      try {
        verdicts.push({ id: job.id, differences: await check(job) });
      } catch (err) {
        verdicts.push({ id: job.id, differences: [], error: err instanceof Error ? err.message : String(err) });
      }
    }
    post({ kind: 'verdicts', verdicts });
  });
});

post({ kind: 'ready' });
