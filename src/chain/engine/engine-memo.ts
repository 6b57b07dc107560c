/**
 * What the readers of one engine remember between calls, as named fields of one object the engine owns
 * (`ChainEngine.memo`): it lives and goes with its engine, so a test chain swapped in, a fork reset or a second engine
 * in the process starts with its own. Every field is bounded: the WeakMaps by the engine objects they are keyed by
 * (blocks, headers, logs, pooled transactions), the fork's answers by count, the getLogs answer buffer by size.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import { Lru } from '../db/lru.js';
import type { Log } from '../logs/types.js';

/** Upstream answers kept per fork: its history does not change, and a test suite asks about few blocks. */
export const FORK_ANSWERS_KEPT = 1024;

/** keccak256(address) → address, as the debug dumps read it (chain/testing/preimage-book.ts builds it). */
export interface AddressPreimages {
  addressOf(hash: Uint8Array): Uint8Array | undefined;
}

/** Notifications encoded once (UTF-8 JSON), shared by every subscriber that receives them. */
export type EncodedNotifications = readonly Uint8Array[];

export class EngineMemo {
  /** The debug dumps' address book (debug_accountRange, anvil_dumpState), made on first use: `preimageBookOf`. */
  preimages: Promise<AddressPreimages> | undefined;

  /** eth_gasPrice's last suggestion and the head Block it was made at: recomputed only when the head changes. */
  gasSuggestion: { readonly head: Block; readonly price: bigint } | undefined;

  /** qa_mineBlocks: an order is being mined; a second is answered MinerIsWorking rather than queued. */
  miningOrder = false;

  /** Encoded length per block (its JSON `size`): blocks are immutable and the chain caches their objects. */
  readonly blockSizes = new WeakMap<Block, number>();

  /** A checkpoint block's federation signers, recovered once per header (~50 µs a signature). */
  readonly checkpointSigners = new WeakMap<BlockHeader, readonly Uint8Array[]>();

  /**
   * newHeads: the newest announced header's notification, encoded once for every subscriber; each link waits for
   * the one before it, so notifications go out in announcement order.
   */
  newestHead: { readonly block: Block; readonly encoded: Promise<EncodedNotifications | undefined> } | undefined;

  /** logs: each log's notification, and each batch of them one filter receives, encoded once. */
  readonly encodedLogs = new WeakMap<Log, Uint8Array>();
  readonly encodedLogBatches = new WeakMap<readonly Log[], EncodedNotifications>();

  /** newPendingTransactions and syncing: each announced object (hash, pooled transaction, sync event) encoded once. */
  readonly encodedAnnouncements = new WeakMap<object, EncodedNotifications>();

  /** eth_getLogs: each log's JSON text, made once per log object the engine's block log cache holds. */
  readonly logAnswerJson = new WeakMap<Log, string>();

  /** On a fork: the upstream's answers about the fork's history (handlers/fork-history.ts), kept for the next ask. */
  readonly forkAnswers = new Lru<string, unknown>(FORK_ANSWERS_KEPT);
}
