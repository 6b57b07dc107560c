/**
 * The crash loop's offline checker: opens a node's datadir with the engine's own storage code (`Blockchain.open`,
 * the same code the node starts with; nothing is written to an existing database) while the node is down, and checks
 * what a crash must never leave behind:
 *
 *   head       the head pointer names a stored block with its total difficulty and receipts, canonical at its height
 *   canonical  every canonical height from the head down to genesis names a stored header whose parent is the
 *              canonical block below (blocks near the head and every block with transactions: body, receipts, tx index)
 *   state      the head's whole state is readable: every account trie node and every storage trie node
 *   log-index  every log-index posting names a stored block at that height whose receipts hold a matching log, and
 *              every canonical block with logs (near the head) has all its postings
 *   address-index  every address-index entry names a stored block whose transaction at that index has the address
 *              as sender, recipient, created contract or log emitter, or ran code that could have reached it
 *   tx-index   every canonical tx-lookup entry names a canonical block holding that transaction at that index
 *
 * Each category yields at most a few failure descriptions (the first ones found).
 */
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { Blockchain } from '../../src/chain/blockchain/blockchain.js';
import { Tag } from '../../src/chain/db/keys.js';
import { engineNetworkOf, etcEngineRules } from '../../src/chain/engine/engine-adapters.js';
import type { TxReceipt } from '../../src/chain/codec/receipts.js';
import { ADDRESS_INDEX_TAG, addressIndexEntries, addressIndexWrites } from '../../src/chain/history/address-index.js';
import { indexWrites, logIndexEntries } from '../../src/chain/logs/log-index.js';
import { getNetwork } from '../../src/chain/networks/index.js';
import type { NetworkDefinition } from '../../src/chain/networks/types.js';
import { instantSealNetwork } from '../../src/chain/engine/seal-mode.js';
import { accountTrieOf, trieRange } from '../../src/chain/state/trie-range.js';
import type { StateRetentionOptions } from '../../src/chain/state/retention.js';

export type OfflineCategory = 'reopen' | 'head' | 'canonical' | 'state' | 'log-index' | 'address-index' | 'tx-index';
export const OFFLINE_CATEGORIES: readonly OfflineCategory[] = [
  'reopen',
  'head',
  'canonical',
  'state',
  'log-index',
  'address-index',
  'tx-index',
];

export interface OfflineCheckResult {
  /** Failure descriptions per category (empty = passed); at most MAX_PER_CATEGORY each. */
  readonly failures: Record<OfflineCategory, string[]>;
  readonly head?: { readonly number: bigint; readonly hash: string };
  readonly counts: {
    readonly canonicalBlocks: number;
    readonly logPostings: number;
    readonly addressEntries: number;
    readonly txLookups: number;
    readonly accounts: number;
    readonly storageSlots: number;
  };
  readonly durationMs: number;
}

const MAX_PER_CATEGORY = 5;
/** Blocks below the head whose body, receipts and index postings are read in full even when they hold no transaction. */
const FULL_DEPTH = 64n;

/**
 * Opens the chain database of `datadir` and runs every check. `network`: the chain it holds (default: the
 * instant-seal dev chain the crash loop runs).
 */
export async function checkDatadirOffline(
  datadir: string,
  network: NetworkDefinition = instantSealNetwork(getNetwork('dev')),
  /** A pruned datadir (`--gcmode full`) opens only in full mode, with the window it was pruned to. */
  retention?: StateRetentionOptions,
): Promise<OfflineCheckResult> {
  const started = performance.now();
  const failures = Object.fromEntries(OFFLINE_CATEGORIES.map((c) => [c, [] as string[]])) as Record<
    OfflineCategory,
    string[]
  >;
  const fail = (category: OfflineCategory, message: string) => {
    if (failures[category].length < MAX_PER_CATEGORY) failures[category].push(message);
  };
  const counts = { canonicalBlocks: 0, logPostings: 0, addressEntries: 0, txLookups: 0, accounts: 0, storageSlots: 0 };
  let chain: Blockchain;
  try {
    chain = await Blockchain.open({
      dataDir: datadir,
      network: engineNetworkOf(network),
      rules: etcEngineRules(network),
      noProof: true,
      ...(retention !== undefined ? { retention, pruning: { automatic: false } } : {}),
    });
  } catch (err) {
    fail('reopen', `the datadir does not reopen: ${(err as Error).message}`);
    return { failures, counts, durationMs: performance.now() - started };
  }
  let headInfo: OfflineCheckResult['head'];
  try {
    const head = chain.getHead();
    const headHash = head.hash();
    headInfo = { number: head.header.number, hash: bytesToHex(headHash) };
    await checkHead(chain, head, (m) => fail('head', m));
    counts.canonicalBlocks = await checkCanonical(chain, head, fail);
    Object.assign(counts, await checkState(chain, head, (m) => fail('state', m)));
    counts.logPostings = await checkLogIndex(chain, (m) => fail('log-index', m));
    counts.addressEntries = await checkAddressIndex(chain, (m) => fail('address-index', m));
    counts.txLookups = await checkTxIndex(chain, (m) => fail('tx-index', m));
  } catch (err) {
    fail('reopen', `reading the datadir failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await chain.close();
  }
  return { failures, ...(headInfo ? { head: headInfo } : {}), counts, durationMs: performance.now() - started };
}

const hex = bytesToHex;

async function checkHead(chain: Blockchain, head: Block, fail: (m: string) => void): Promise<void> {
  const hash = head.hash();
  const what = `head ${head.header.number} ${hex(hash)}`;
  if ((await chain.getTotalDifficulty(hash)) === undefined) fail(`${what} has no total difficulty`);
  const receipts = await chain.getReceipts(hash);
  if (receipts === undefined) fail(`${what} has no receipts record`);
  else if (receipts.length !== head.transactions.length)
    fail(`${what} has ${head.transactions.length} transactions but ${receipts.length} receipts`);
  const canonical = await chain.getCanonicalHash(head.header.number);
  if (canonical === undefined || !equalsBytes(canonical, hash))
    fail(`${what} is not the canonical block at its height (${canonical ? hex(canonical) : 'none'})`);
}

/** Walks the canonical chain from the head to genesis; returns the number of blocks walked. */
async function checkCanonical(
  chain: Blockchain,
  head: Block,
  fail: (category: OfflineCategory, m: string) => void,
): Promise<number> {
  let header = head.header;
  let walked = 0;
  const headNumber = head.header.number;
  for (;;) {
    walked++;
    const hash = header.hash();
    const n = header.number;
    const canonical = await chain.getCanonicalHash(n);
    if (canonical === undefined || !equalsBytes(canonical, hash)) {
      fail(
        'canonical',
        `height ${n}: canonical index names ${canonical ? hex(canonical) : 'nothing'}, the head's ancestor is ${hex(hash)}`,
      );
    }
    const hasTxs = !equalsBytes(header.transactionsTrie, KECCAK256_RLP);
    if (hasTxs || headNumber - n < FULL_DEPTH) await checkStoredBlock(chain, hash, n, fail);
    if (n === 0n) break;
    const parent = await chain.getHeader(header.parentHash);
    if (parent === undefined) {
      fail('canonical', `block ${n} ${hex(hash)}: parent ${hex(header.parentHash)} is not stored`);
      break;
    }
    if (parent.number !== n - 1n) fail('canonical', `block ${n} ${hex(hash)}: parent has number ${parent.number}`);
    header = parent;
  }
  return walked;
}

/** A canonical block's body, receipts, tx-lookup entries and index postings. */
async function checkStoredBlock(
  chain: Blockchain,
  hash: Uint8Array,
  n: bigint,
  fail: (category: OfflineCategory, m: string) => void,
): Promise<void> {
  const block = await chain.getBlock(hash);
  if (block === undefined) return fail('canonical', `block ${n} ${hex(hash)}: header without body`);
  const receipts = await chain.getReceipts(hash);
  if (receipts === undefined || receipts.length !== block.transactions.length) {
    return fail(
      'canonical',
      `block ${n} ${hex(hash)}: ${block.transactions.length} transactions, ${receipts?.length ?? 'no'} receipts`,
    );
  }
  for (let i = 0; i < block.transactions.length; i++) {
    const at = await chain.getTransactionLocation(block.transactions[i].hash());
    if (at === undefined || !equalsBytes(at.blockHash, hash) || at.index !== i) {
      fail(
        'tx-index',
        `canonical tx ${hex(block.transactions[i].hash())} (block ${n}, index ${i}) has lookup ${at ? `${hex(at.blockHash)}#${at.index}` : 'none'}`,
      );
    }
  }
  const expected = [...indexWrites(block, receipts), ...addressIndexWrites(block, receipts)];
  for (const op of expected) {
    if (!(await hasKey(chain, op.key))) {
      fail(
        op.key[0] === ADDRESS_INDEX_TAG ? 'address-index' : 'log-index',
        `block ${n} ${hex(hash)}: index key ${hex(op.key)} missing`,
      );
    }
  }
}

async function hasKey(chain: Blockchain, key: Uint8Array): Promise<boolean> {
  const lt = new Uint8Array(key.length + 1);
  lt.set(key);
  const iterator = chain.logIndex.keys({ gte: key, lt });
  try {
    return (await iterator.nextv(1)).length > 0;
  } finally {
    await iterator.close();
  }
}

/** Every node of the head's account trie and of every storage trie it references. */
async function checkState(
  chain: Blockchain,
  head: Block,
  fail: (m: string) => void,
): Promise<{ accounts: number; storageSlots: number }> {
  let accounts = 0;
  let storageSlots = 0;
  const view = await chain.stateAt(head.hash());
  if (view === undefined) {
    fail(`no state view for the head ${hex(head.hash())}`);
    return { accounts, storageSlots };
  }
  const trie = accountTrieOf(view.stateManager);
  let start: Uint8Array | undefined = new Uint8Array(32);
  try {
    while (start !== undefined) {
      const page = await trieRange(trie, start, 1000);
      for (const { key, value } of page.entries) {
        accounts++;
        const [, , storageRoot] = RLP.decode(value) as Uint8Array[];
        if (storageRoot !== undefined && !equalsBytes(storageRoot, KECCAK256_RLP)) {
          const storage = trie.shallowCopy(false);
          storage.root(storageRoot);
          let slotStart: Uint8Array | undefined = new Uint8Array(32);
          try {
            while (slotStart !== undefined) {
              const slots = await trieRange(storage, slotStart, 1000);
              storageSlots += slots.entries.length;
              slotStart = slots.next;
            }
          } catch (err) {
            fail(`storage trie ${hex(storageRoot)} of account key ${hex(key)} at the head: ${(err as Error).message}`);
          }
        }
      }
      start = page.next;
    }
  } catch (err) {
    fail(`account trie ${hex(head.header.stateRoot)} of the head ${head.header.number}: ${(err as Error).message}`);
  }
  return { accounts, storageSlots };
}

interface StoredBlockInfo {
  readonly block?: Block;
  readonly receipts?: TxReceipt[];
  readonly number?: bigint;
}

function blockCache(chain: Blockchain) {
  const cache = new Map<string, Promise<StoredBlockInfo>>();
  return (hash: Uint8Array): Promise<StoredBlockInfo> => {
    const key = hex(hash);
    let entry = cache.get(key);
    if (entry === undefined) {
      entry = (async () => {
        const [block, receipts] = await Promise.all([chain.getBlock(hash), chain.getReceipts(hash)]);
        return { ...(block ? { block, number: block.header.number } : {}), ...(receipts ? { receipts } : {}) };
      })();
      if (cache.size > 4096) cache.clear();
      cache.set(key, entry);
    }
    return entry;
  };
}

async function checkLogIndex(chain: Blockchain, fail: (m: string) => void): Promise<number> {
  const load = blockCache(chain);
  let count = 0;
  for await (const entry of logIndexEntries(chain.logIndex)) {
    count++;
    if (entry.kind === 'malformed') {
      fail(`malformed log-index key ${hex(entry.key)}`);
      continue;
    }
    const what = `log-index ${entry.kind} posting for block ${entry.number} ${hex(entry.hash)}`;
    const stored = await load(entry.hash);
    if (stored.block === undefined) {
      fail(`${what}: the block is not stored`);
      continue;
    }
    if (stored.number !== entry.number) fail(`${what}: the stored block has number ${stored.number}`);
    if (stored.receipts === undefined) {
      fail(`${what}: the block has no receipts`);
      continue;
    }
    const logs = stored.receipts.flatMap((r) => r.logs);
    const matches =
      entry.kind === 'any'
        ? logs.length > 0
        : entry.kind === 'address'
          ? logs.some((log) => equalsBytes(log.address, entry.address))
          : logs.some(
              (log) => log.topics[entry.position] !== undefined && equalsBytes(log.topics[entry.position], entry.topic),
            );
    if (!matches) fail(`${what}: no log of the block matches it`);
  }
  return count;
}

async function checkAddressIndex(chain: Blockchain, fail: (m: string) => void): Promise<number> {
  const load = blockCache(chain);
  let count = 0;
  for await (const entry of addressIndexEntries(chain.logIndex)) {
    count++;
    if ('malformed' in entry) {
      fail(`malformed address-index key ${hex(entry.malformed)}`);
      continue;
    }
    const what = `address-index entry ${hex(entry.address)} → block ${entry.number} ${hex(entry.blockHash)} tx ${entry.index}`;
    const stored = await load(entry.blockHash);
    if (stored.block === undefined || stored.receipts === undefined) {
      fail(`${what}: the block ${stored.block === undefined ? 'is not stored' : 'has no receipts'}`);
      continue;
    }
    if (stored.number !== entry.number) fail(`${what}: the stored block has number ${stored.number}`);
    const tx = stored.block.transactions[entry.index];
    const receipt = stored.receipts[entry.index];
    if (tx === undefined || receipt === undefined) {
      fail(`${what}: the block has ${stored.block.transactions.length} transactions`);
      continue;
    }
    const direct =
      equalsBytes(receipt.from, entry.address) ||
      (tx.to !== undefined && equalsBytes(tx.to.bytes, entry.address)) ||
      (receipt.contractAddress !== undefined && equalsBytes(receipt.contractAddress, entry.address)) ||
      receipt.logs.some((log) => equalsBytes(log.address, entry.address));
    // An address reached only by an internal call is not stored with the receipt; the entry is still impossible
    // when the transaction ran no code: it used no more gas than its intrinsic gas (a plain transfer).
    const ranCode = tx.to === undefined || receipt.gasUsed > tx.getIntrinsicGas();
    if (!direct && !ranCode) {
      fail(`${what}: the transaction neither comes from nor goes to that address, and ran no code to reach it`);
    }
  }
  return count;
}

async function checkTxIndex(chain: Blockchain, fail: (m: string) => void): Promise<number> {
  const iterator = chain.logIndex.keys({ gte: Uint8Array.of(Tag.txLookup), lt: Uint8Array.of(Tag.txLookup + 1) });
  const load = blockCache(chain);
  let count = 0;
  try {
    for (;;) {
      const keys = await iterator.nextv(1024);
      if (keys.length === 0) break;
      for (const key of keys) {
        count++;
        const txHash = key.slice(1);
        const at = await chain.getTransactionLocation(txHash);
        const what = `tx lookup ${hex(txHash)}`;
        if (at === undefined) {
          fail(`${what}: unreadable`);
          continue;
        }
        const stored = await load(at.blockHash);
        if (stored.block === undefined) {
          fail(`${what} → block ${hex(at.blockHash)}: the block is not stored`);
          continue;
        }
        const canonical = await chain.getCanonicalHash(stored.block.header.number);
        if (canonical === undefined || !equalsBytes(canonical, at.blockHash)) {
          fail(
            `${what} → block ${stored.block.header.number} ${hex(at.blockHash)}: not canonical (canonical is ${canonical ? hex(canonical) : 'none'})`,
          );
        }
        const tx = stored.block.transactions[at.index];
        if (tx === undefined || !equalsBytes(tx.hash(), txHash))
          fail(`${what} → block ${hex(at.blockHash)} index ${at.index}: another transaction`);
      }
    }
  } finally {
    await iterator.close();
  }
  return count;
}
