/**
 * Empty children of the head built, sealed and stored in bulk (qa_mineBlocks, test_mineBlocks with nothing
 * pending). Each chunk is one atomic LevelDB batch holding every block's header, body, receipts, total difficulty,
 * state nodes and canonical entry, and the head pointer at its last block, so the per-block cost is the block's own
 * work, not a database round trip. Each block passes the same header rules as an import (its seal too unless the
 * sealer checked it); an empty block has no body to check and no log or address postings. Its only state change is
 * its reward, credited straight into the trie (exec/bulk-rewards.ts), and its header is built once and encoded
 * once (stored and hashed from the same bytes).
 */
import { Block, type BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Address, bytesToHex, equalsBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import type { ChainEmitter } from '../view/chain-events.js';
import type { ChainView } from '../view/chain-view.js';
import type { Federation } from '../checkpointing/index.js';
import type { BlockStore } from '../db/block-store.js';
import { WriteBatch, type ChainDB } from '../db/chain-db.js';
import { RecordArena } from '../db/record-arena.js';
import type { ChainRules, RewardCredit } from '../rules/engine-types.js';
import { RewardLedger } from '../exec/bulk-rewards.js';
import { invalidBlock } from '../import/import-error.js';
import type { BlockValidator } from '../import/validate.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import { headerBuilder, type AssembledBlock } from './assembler.js';
import { HeaderRun, type RunFields } from './header-run.js';
import type { WarmState } from '../exec/warm-state.js';

/** Blocks per LevelDB batch: large enough that the write's fixed cost vanishes, small enough that an import queued behind a chunk (or a request, while a chunk runs without I/O) waits well under a second. */
export const BULK_CHUNK = 500;
const NONE: readonly never[] = Object.freeze([]);

export interface ExtendHeadOptions {
  readonly count: number;
  readonly coinbase: Uint8Array;
  readonly extraData?: Uint8Array;
  /** Asked once per block; undefined = max(now, parent + 1). */
  readonly timestamp?: () => bigint | undefined;
  /** Seals an assembled block and returns `assembled.seal(…)`'s block (at once when it need not wait). */
  readonly seal: (assembled: AssembledBlock) => Block | Promise<Block>;
  /** Called with each chunk's blocks once the chunk is stored (and its events fired), with the chunk's time in ms. */
  readonly onChunk?: (chunk: readonly ExtendedBlock[], chunkMs: number) => void;
  /** Return every block made (default true); false: resolve to an empty list, so no chunk is held past its own. */
  readonly collect?: boolean;
  /** Blocks per chunk (default BULK_CHUNK): tests cross chunk boundaries with short runs of small chunks. */
  readonly chunkSize?: number;
}

export interface ExtendedBlock {
  readonly assembled: AssembledBlock;
  readonly block: Block;
}

export interface EmptyChunkParts {
  readonly view: ChainView;
  readonly store: BlockStore;
  readonly nodes: TrieNodeStore;
  readonly db: ChainDB;
  readonly rules: ChainRules;
  readonly federation: Federation | undefined;
  readonly validator: BlockValidator;
  readonly warm: WarmState;
  readonly events: ChainEmitter;
}

/**
 * Gives a frozen header the hash of its encoding, computed by the caller from the same bytes it stores, so the
 * header is not encoded a second time to hash it. (`hash()` keeps the first hash of a frozen header in `cache`;
 * if that ever changes, the header hashes itself again, as before.)
 */
function keepHeaderHash(header: BlockHeader, hash: Uint8Array): void {
  const cache = (header as unknown as { cache?: { hash?: Uint8Array } }).cache;
  if (Object.isFrozen(header) && cache !== undefined && cache.hash === undefined) cache.hash = hash;
}

export class EmptyChunkBuilder {
  constructor(private readonly p: EmptyChunkParts) {}

  /**
   * The last run's header maker, kept for the next chunk (the next qa_mineBlocks call too) while the fields its
   * headers share are the same: a new run builds its first two headers through the library (~0.3 ms each,
   * profiled, paid by every 99-block call of the peer bench's logs row).
   */
  private lastRun:
    | { run: HeaderRun; common: Common; checkpointField: boolean; coinbase: Uint8Array; extra: Uint8Array; gas: bigint }
    | undefined;

  private runFor(
    common: Common,
    checkpointField: boolean,
    coinbase: Uint8Array,
    extra: Uint8Array,
    gas: bigint,
    builder: () => ConstructorParameters<typeof HeaderRun>[0],
  ): HeaderRun {
    const last = this.lastRun;
    if (
      last !== undefined &&
      last.common === common &&
      last.checkpointField === checkpointField &&
      last.gas === gas &&
      equalsBytes(last.coinbase, coinbase) &&
      equalsBytes(last.extra, extra)
    )
      return last.run;
    // Own copies of the caller's bytes, compared by the next chunk; the bloom is shared by the run's headers, which
    // never change their fields (frozen objects).
    const own = { coinbase: coinbase.slice(), extra: extra.slice() };
    const run = new HeaderRun(builder(), {
      uncleHash: KECCAK256_RLP_ARRAY,
      coinbase: own.coinbase,
      transactionsTrie: KECCAK256_RLP,
      receiptTrie: KECCAK256_RLP,
      logsBloom: new Uint8Array(256),
      gasLimit: gas,
      gasUsed: 0n,
      extraData: own.extra,
    });
    this.lastRun = { run, common, checkpointField, ...own, gas };
    return run;
  }

  /** `count` empty blocks on the head, stored in one batch; `newHead` and `blockImported` fire per block, in order, once it is written. */
  async extend(count: number, opts: ExtendHeadOptions): Promise<ExtendedBlock[]> {
    const { view, store, rules, federation } = this.p;
    const started = performance.now();
    const batch = new WriteBatch();
    const built: { block: Block; extended: ExtendedBlock; td: bigint }[] = [];
    let parent = view.getHead().header;
    let td = view.getHeadTotalDifficulty();
    const headCheckpoint = view.getHeadLastCheckpoint();
    // An empty block changes the state by its rewards alone: credited straight into the trie (exec/bulk-rewards.ts),
    // every block of the chunk continuing on its parent's root, all nodes in one buffer for the chunk's batch.
    // The chunk's keys, node encodings and header encodings in shared pages: one allocation per 64 KB, not per record.
    const arena = new RecordArena();
    const ledger = new RewardLedger(
      this.p.nodes,
      view.commonAt(parent.number + 1n),
      view.stateRootAfter(parent),
      arena.take,
    );
    const coinbase = new Address(opts.coinbase);
    // The miner's warm state, if it is the head's, goes on past the chunk (see WarmState.carry) with the chunk's rewards.
    const warm = this.p.warm.takeAt(parent);
    // Per address (hex), what the chunk's rewards paid it: credited to the carried warm state at the end.
    const rewarded = new Map<string, RewardCredit>();
    let lastPaid: { readonly address: Uint8Array; readonly key: string } | undefined;
    const extraData = opts.extraData ?? new Uint8Array(0);
    let fresh: Common | undefined;
    let common!: Common;
    // The headers are copies of the run's first (header-run.ts), for as long as the rule set and header form hold.
    let run: HeaderRun | undefined;
    let withCheckpointField: boolean | undefined;
    for (let i = 0; i < count; i++) {
      const number = parent.number + 1n;
      // The rules hand out one Common per rule set: look the shared one up only when it changes.
      const rulesCommon = rules.commonAt(number);
      const checkpointField = federation?.activeAt(number) === true;
      if (rulesCommon !== fresh || checkpointField !== withCheckpointField) {
        fresh = rulesCommon;
        withCheckpointField = checkpointField;
        common = view.commonAt(number);
        run = this.runFor(common, checkpointField, opts.coinbase, extraData, parent.gasLimit, () =>
          headerBuilder(federation, number, common),
        );
      }
      const now = BigInt(Math.floor(Date.now() / 1000));
      const timestamp = opts.timestamp?.() ?? (now > parent.timestamp ? now : parent.timestamp + 1n);
      // The rules read a reward's block number and coinbase; an empty block has no uncles.
      const rewards = rules.rewards({ number, coinbase } as BlockHeader, []);
      if (warm !== undefined) {
        for (const { address, amount } of rewards) {
          // Nearly always the one coinbase: its hex key made once, not per block.
          if (lastPaid === undefined || !equalsBytes(lastPaid.address, address))
            lastPaid = { address, key: bytesToHex(address) };
          const key = lastPaid.key;
          rewarded.set(key, { address, amount: (rewarded.get(key)?.amount ?? 0n) + amount });
        }
      }
      const credited = ledger.credit(rewards);
      const stateRoot = credited instanceof Uint8Array ? credited : await credited;
      const assembled = new EmptyAssembly(common, run!, {
        parentHash: parent.hash(),
        stateRoot,
        difficulty: rules.difficulty(parent, timestamp),
        number,
        timestamp,
      });
      // No await where nothing waits (the instant seal, rules that answer at once): a microtask turn a block less.
      const sealing = opts.seal(assembled);
      const block = sealing instanceof Block ? sealing : await sealing;
      if (!assembled.made(block)) throw new Error('extendHead: the sealer must return the block from assembled.seal');
      const checking = this.p.validator.checkHeader(parent, block.header, 'block', assembled.verified);
      if (checking !== undefined) await checking;
      // Only a heavier chain becomes the head (an import's rule); a zero-difficulty child would not be.
      if (block.header.difficulty === 0n)
        throw invalidBlock(block, 'invalid-header', 'zero difficulty cannot extend the head');
      td += block.header.difficulty;
      // The header is encoded once: the hash is taken from the stored bytes (and kept by the header).
      const headerBytes = run!.serialize(block.header, arena.take);
      const hash = common.customCrypto.keccak256!(headerBytes);
      keepHeaderHash(block.header, hash);
      store.stageEmptyCanonicalBlock(batch, hash, headerBytes, number, td, arena.take);
      if (federation !== undefined) store.stageLastCheckpoint(batch, hash, headCheckpoint);
      built.push({ block, extended: { assembled, block }, td });
      parent = block.header;
    }
    ledger.writeTo(batch);
    // The flat state's change is the credited accounts' leaves: listed, not walked from the tries.
    batch.flatChanges = ledger.flatChanges();
    store.stageHead(batch, parent.hash());
    await view.flat.writeHead(batch, parent.stateRoot);
    this.p.nodes.remember(ledger.latestNodes());
    const durationMs = (performance.now() - started) / Math.max(1, count);
    const events = this.p.events;
    const imported = events.listenerCount('blockImported') > 0;
    const extended: ExtendedBlock[] = [];
    // Only the chunk's last blocks can stay in the block cache: caching the others only to evict them at once cost a
    // hex key and two cache inserts per block.
    const cachedFrom = built.length - store.blocks.capacity;
    for (let i = 0; i < built.length; i++) {
      const { block, extended: made, td: blockTd } = built[i];
      if (i >= cachedFrom) store.remember(block, []);
      store.noteCanonical(block.header.number, block.hash());
      view.moveHead(block, { lastCheckpoint: headCheckpoint, totalDifficulty: blockTd });
      events.emit('newHead', block);
      if (imported) events.emit('blockImported', { block, status: 'head', durationMs });
      extended.push(made);
    }
    if (warm !== undefined && built.length > 0) {
      const head = built[built.length - 1].block;
      await this.p.warm.carry(warm, [...rewarded.values()], head, view.commonAt(head.header.number));
    }
    return extended;
  }
}

/**
 * An empty block's assembly: its header fields are final but for the seal, and nothing is executed on import
 * (`made` tells the chunk the sealer returned this assembly's block). A class, not an object literal with getters
 * and closures: one is made per bulk block, and the literal cost ~10 µs each to create (profiled).
 */
class EmptyAssembly implements AssembledBlock {
  readonly transactions = NONE;
  readonly receipts = NONE;
  readonly rejected = NONE;
  private unsealed: Block | undefined;
  private sealed: Block | undefined;
  verified = false;

  constructor(
    private readonly common: Common,
    private readonly run: HeaderRun,
    private readonly fields: Omit<RunFields, 'nonce' | 'mixHash'>,
  ) {}

  get template(): Block {
    this.unsealed ??= this.build(new Uint8Array(8), new Uint8Array(32));
    return this.unsealed;
  }

  seal(nonce: Uint8Array, mixHash: Uint8Array, sealVerified = false): Block {
    this.sealed = this.build(nonce, mixHash);
    this.verified = sealVerified;
    return this.sealed;
  }

  made(block: Block): boolean {
    return block === this.sealed;
  }

  private build(nonce: Uint8Array, mixHash: Uint8Array): Block {
    const { parentHash, stateRoot, difficulty, number, timestamp } = this.fields;
    const header = this.run.header({ parentHash, stateRoot, difficulty, number, timestamp, nonce, mixHash });
    return new Block(header, [], [], undefined, { common: this.common });
  }
}
