/**
 * The state change of an empty block is its rewards alone (a credit to the coinbase, on a pre-EIP-158 chain
 * possibly of 0). For a run of empty blocks (Blockchain.extendHead) this credits them straight into the
 * account trie: each credited account is read once per run and kept, and each block hashes only the path of
 * the credited leaves (trie-batch.ts), without a state manager, its caches, checkpoints and flush. The result
 * is the state a BlockRunner gives for a block without transactions (test/chain/engine/bulk-blocks.test.ts
 * re-imports the blocks with full execution): an account is stored as `Account.serialize()`, even when empty.
 *
 * The usual block credits one account, the same as its parent did. Then only that leaf's value changes, and the
 * path from the root to it keeps its shape: the path is decoded once (`CreditPath`) and each block re-encodes
 * and re-hashes just its nodes, bottom-up, writing the new ones. Anything else goes through the trie batch.
 */
import { encodeAccountLeaf } from './account-leaf.js';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import {
  Account,
  bytesToUnprefixedHex,
  createAccountFromRLP,
  equalsBytes,
  hexToBytes,
  ValueEncoding,
} from '@ethereumjs/util';
import type { WriteBatch } from '../db/chain-db.js';
import type { FlatChanges } from '../db/flat-changes.js';
import { keys, type Allocate } from '../db/keys.js';
import type { RewardCredit } from '../rules/engine-types.js';
import { toNibbles } from '../state/nibbles.js';
import { StateTrie, isMissingNode } from '../state/state-trie.js';
import { BufferedTrieDB, type TrieNodeStore } from '../state/trie-db.js';

export class RewardLedger {
  /** Trie nodes of every block credited so far, to go into the run's batch. */
  readonly buffer: BufferedTrieDB;
  /** The trie, made at the first credit that needs it (most runs need none: see `creditFirst`). */
  private trieMade: StateTrie | undefined;
  /** The state root after the latest credit. */
  private currentRoot: Uint8Array;
  /**
   * Accounts credited so far, by address hex, with their hashed trie key and their stored leaf value before the
   * run (null: absent).
   */
  private readonly accounts = new Map<
    string,
    { readonly key: Uint8Array; readonly account: Account; readonly before: Uint8Array | null }
  >();
  /** The state root the run started from. */
  private readonly startRoot: Uint8Array;
  private readonly keccak: (bytes: Uint8Array) => Uint8Array;

  /**
   * `allocate` gives the bytes of the nodes `rehash` writes and of every node key (default fresh arrays; a chunk
   * passes its arena, db/record-arena.ts): they die with the chunk's write, but for `latestNodes`, copied out.
   */
  constructor(
    private readonly store: TrieNodeStore,
    common: Common,
    stateRoot: Uint8Array,
    private readonly allocate: Allocate = (length) => new Uint8Array(length),
  ) {
    this.buffer = new BufferedTrieDB(store);
    this.common = common;
    this.keccak = common.customCrypto.keccak256!;
    this.startRoot = stateRoot;
    this.currentRoot = stateRoot;
  }

  private readonly common: Common;

  /** The trie at the latest credit's root (its construction is ~0.3 ms, paid by a run only if it credits through it). */
  private get trie(): StateTrie {
    this.trieMade ??= new StateTrie(
      {
        db: this.buffer,
        valueEncoding: ValueEncoding.Bytes,
        useKeyHashing: true,
        common: this.common,
        root: this.currentRoot,
      },
      this.store.trieCaches,
    );
    return this.trieMade;
  }

  /**
   * The run's change to the flat state (state/flat-table.ts) as a list: each credited account's leaf before the run
   * and after it (`Account.serialize()`, as the trie stores it). The table takes it instead of walking both tries
   * for the chunk's head move (~0.6 ms a 99-block chunk), when it sits at the run's start root.
   */
  flatChanges(): FlatChanges {
    const accounts = [...this.accounts.values()].map(({ key, account, before }) => ({
      hashedKey: key,
      before,
      after: account.serialize(),
      slots: [],
    }));
    return { fromRoot: this.startRoot, toRoot: this.currentRoot, accounts };
  }

  /**
   * Credits one block's rewards and returns the state root after them: at once (no promise) when the block reuses
   * the previous credit's path, the usual case.
   */
  credit(rewards: readonly RewardCredit[]): Uint8Array | Promise<Uint8Array> {
    if (rewards.length === 1) {
      const { address, amount } = rewards[0];
      const path = this.path;
      if (path !== undefined && equalsBytes(path.address, address)) {
        path.entry.account.balance += amount;
        return this.rehashed_(path);
      }
      if (path === undefined && !this.accounts.has(bytesToUnprefixedHex(address))) return this.creditFirst(rewards);
      return this.creditOnce(rewards, address);
    }
    this.path = undefined;
    return this.creditInTrie(rewards);
  }

  /** The state root once `path`'s account (already credited) is re-encoded along its path. */
  private rehashed_(path: CreditPath): Uint8Array {
    const root = this.rehash(path);
    this.currentRoot = root;
    this.trieMade?.root(root);
    return root;
  }

  /**
   * A run's first single credit to an account it has not read: the stored path to the account's leaf, read and
   * decoded, gives the account, and the credit is its re-hash like every later block's, without the trie (a run's
   * usual first block: the trie's reads, writes and commit and its construction cost ~0.5 ms a run). An account
   * that is absent, or a path that cannot be read here (a forked chain's upstream), goes through the trie.
   */
  private async creditFirst(rewards: readonly RewardCredit[]): Promise<Uint8Array> {
    const { address, amount } = rewards[0];
    const path = this.store.fork === undefined ? await this.openPath(address, this.currentRoot) : undefined;
    if (path === undefined) return this.creditOnce(rewards, address);
    this.path = path;
    path.entry.account.balance += amount;
    return this.rehashed_(path);
  }

  /** The first single credit to `address` (in this run, or after other credits): through the trie, then its path is kept. */
  private async creditOnce(rewards: readonly RewardCredit[], address: Uint8Array): Promise<Uint8Array> {
    const root = await this.creditInTrie(rewards);
    this.path = await this.openPath(address, root);
    return root;
  }

  /** Adds every node written so far to a batch (the buffer's own keys are hex; the path's hashes are kept as bytes). */
  writeTo(batch: WriteBatch): void {
    const allocate = this.allocate;
    for (const [hex, value] of this.buffer.pending)
      batch.put(keys.state(this.hashes.get(hex) ?? hexToBytes(`0x${hex}`), allocate), value);
    for (const { hash, encoded } of this.rehashed) batch.put(keys.state(hash, allocate), encoded);
  }

  /**
   * The nodes of the latest block's state, for the node store's cache once the batch is written (the states of
   * the blocks before it are rarely read again): those `rehash` wrote for it, else every node written.
   */
  latestNodes(): ReadonlyMap<string, Uint8Array> {
    // Copies here as below: nodes `settle` moved into the buffer are views of the arena.
    if (this.latestStart === undefined)
      return new Map([...this.buffer.pending].map(([hex, value]) => [hex, value.slice()] as const));
    const latest = new Map<string, Uint8Array>();
    for (let i = this.latestStart; i < this.rehashed.length; i++) {
      const { hash, encoded } = this.rehashed[i];
      // A copy: the node cache keeps it, and a view would keep the whole arena page alive.
      latest.set(bytesToUnprefixedHex(hash), encoded.slice());
    }
    return latest;
  }

  /** Where the latest block's nodes start in `rehashed`; undefined when that block went through the trie. */
  private latestStart: number | undefined;

  /**
   * Nodes `rehash` wrote, by hash bytes, not yet in the buffer: a block's path costs no hex keys or map entries
   * unless a later credit goes through the trie and may read them (`settle`).
   */
  private rehashed: { readonly hash: Uint8Array; readonly encoded: Uint8Array }[] = [];

  /** Node hash bytes by hex, for the nodes `rehash` wrote that moved into the buffer. */
  private readonly hashes = new Map<string, Uint8Array>();

  /** Moves `rehash`'s nodes into the buffer, where the trie reads: before any credit through the trie. */
  private settle(): void {
    for (const { hash, encoded } of this.rehashed) {
      const hex = bytesToUnprefixedHex(hash);
      this.buffer.pending.set(hex, encoded);
      this.hashes.set(hex, hash);
    }
    this.rehashed = [];
  }

  /** The path to the last single credit's leaf, with its account; undefined when there is none to reuse. */
  private path: CreditPath | undefined;

  private async creditInTrie(rewards: readonly RewardCredit[]): Promise<Uint8Array> {
    this.settle();
    this.latestStart = undefined;
    // Reads first: the batch below only collects writes.
    const touched: { key: Uint8Array; account: Account }[] = [];
    for (const { address, amount } of rewards) {
      const entry = await this.entry(address);
      entry.account.balance += amount;
      touched.push(entry);
    }
    if (touched.length === 0) return this.currentRoot;
    const trie = this.trie;
    trie.beginBatch();
    for (const { key, account } of touched) await trie.put(key, account.serialize(), true);
    await trie.commitBatch();
    this.currentRoot = trie.root();
    return this.currentRoot;
  }

  /** Re-encodes the path with the account's new value: the nodes of 32 bytes or more (and the root) are hashed and written. */
  private rehash(path: CreditPath): Uint8Array {
    const { levels } = path;
    this.latestStart = this.rehashed.length;
    const leaf = levels[levels.length - 1].node;
    const written = encodeAccountLeaf(leaf[0], path.entry.account, this.allocate);
    leaf[1] = written.value;
    let ref: Uint8Array | Uint8Array[] = leaf;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i];
      let encoded: Uint8Array;
      if (i === levels.length - 1) encoded = written.leaf;
      else {
        level.node[level.slot] = ref as Uint8Array;
        encoded =
          level.template !== undefined && ref instanceof Uint8Array
            ? patched(level.template, ref, this.allocate)
            : RLP.encode(level.node);
        // A node whose changing child is a hash keeps its length and layout: later blocks patch a copy of its bytes.
        if (level.template === undefined && ref instanceof Uint8Array) level.template = templateOf(encoded, ref);
      }
      if (encoded.length >= 32 || i === 0) {
        const hash = this.keccak(encoded);
        this.rehashed.push({ hash, encoded });
        ref = hash;
      } else {
        ref = level.node;
      }
    }
    return ref as Uint8Array;
  }

  /**
   * Decodes (own copies of) the nodes from `root` to the account's leaf; undefined if the shape is unexpected. An
   * account this run has not read yet is read from its leaf here (and kept, with its key) when the path holds it.
   */
  private async openPath(address: Uint8Array, root: Uint8Array): Promise<CreditPath | undefined> {
    this.settle();
    const hex = bytesToUnprefixedHex(address);
    const known = this.accounts.get(hex);
    const key = known?.key ?? this.keccak(address);
    const target = toNibbles(key);
    const levels: PathLevel[] = [];
    let ref: Uint8Array | Uint8Array[] = root;
    let progress = 0;
    for (;;) {
      let node: Uint8Array[];
      if (ref instanceof Uint8Array) {
        const bytes = await this.buffer.get(bytesToUnprefixedHex(ref));
        if (bytes === undefined) return undefined;
        node = RLP.decode(bytes) as Uint8Array[];
      } else {
        // An embedded node: copied, since its parent's copy is re-encoded with it.
        node = [...ref];
      }
      if (node.length === 17) {
        if (progress >= target.length) return undefined;
        const slot = target[progress++];
        const child = node[slot] as Uint8Array | Uint8Array[];
        if (child.length === 0) return undefined;
        levels.push({ node, slot });
        ref = child;
        continue;
      }
      if (node.length !== 2 || !(node[0] instanceof Uint8Array)) return undefined;
      const nibbles = toNibbles(node[0]);
      const flag = nibbles[0];
      if (flag > 3) return undefined;
      const keyNibbles = nibbles.slice(flag % 2 === 1 ? 1 : 2);
      for (const n of keyNibbles) if (target[progress++] !== n) return undefined;
      levels.push({ node, slot: 1 });
      if (flag >= 2) {
        // A leaf: it must end the key, and hold this account (in its canonical encoding, which `rehash` writes).
        const value = node[1];
        if (progress !== target.length || !(value instanceof Uint8Array)) return undefined;
        const entry = known ?? { key, account: createAccountFromRLP(value), before: value };
        if (!equalsBytes(value, entry.account.serialize())) return undefined;
        if (known === undefined) this.accounts.set(hex, entry);
        return { address, entry, levels };
      }
      ref = node[1] as Uint8Array | Uint8Array[];
    }
  }

  private async entry(address: Uint8Array): Promise<{ key: Uint8Array; account: Account }> {
    const hex = bytesToUnprefixedHex(address);
    let entry = this.accounts.get(hex);
    if (entry === undefined) {
      const key = this.keccak(address);
      const stored = await this.readAccount(address);
      entry = { key, account: stored === null ? new Account() : createAccountFromRLP(stored), before: stored };
      this.accounts.set(hex, entry);
    }
    return entry;
  }

  /** The coinbase's stored account; on a forked chain its path may first have to come from the upstream. */
  private async readAccount(address: Uint8Array): Promise<Uint8Array | null> {
    const fork = this.store.fork;
    if (fork === undefined) return this.trie.get(address);
    try {
      return await this.trie.get(address);
    } catch (err) {
      if (!isMissingNode(err)) throw err;
    }
    await fork.resolve(address);
    return this.trie.get(address);
  }
}

interface PathLevel {
  /** The node's raw items (own copy): a branch's 17, or an extension's or leaf's [encoded path, child or value]. */
  readonly node: Uint8Array[];
  /** Which item holds the next node down (for the leaf: its value). */
  readonly slot: number;
  /** The node's encoding and where its child's 32-byte hash sits in it (see `rehash`). */
  template?: { readonly bytes: Uint8Array; readonly offset: number };
}

/** The encoding with another 32-byte child hash in place. */
function patched(
  template: { readonly bytes: Uint8Array; readonly offset: number },
  hash: Uint8Array,
  allocate: Allocate,
): Uint8Array {
  const bytes = allocate(template.bytes.length);
  bytes.set(template.bytes);
  bytes.set(hash, template.offset);
  return bytes;
}

/** Where `hash` (as an RLP string: 0xa0 and 32 bytes) sits in `encoded`, if exactly once. */
function templateOf(
  encoded: Uint8Array,
  hash: Uint8Array,
): { readonly bytes: Uint8Array; readonly offset: number } | undefined {
  let offset = -1;
  for (let at = 1; at + 32 <= encoded.length; at++) {
    if (encoded[at - 1] !== 0xa0 || !equalsBytes(encoded.subarray(at, at + 32), hash)) continue;
    if (offset !== -1) return undefined;
    offset = at;
  }
  return offset === -1 ? undefined : { bytes: encoded, offset };
}

interface CreditPath {
  readonly address: Uint8Array;
  readonly entry: { readonly key: Uint8Array; readonly account: Account };
  /** Root first, the account's leaf last. */
  readonly levels: readonly PathLevel[];
}
