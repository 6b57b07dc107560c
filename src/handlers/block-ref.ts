/**
 * Block parameters → engine blocks and states, shared by the eth read handlers.
 *
 * - a hex number: the canonical block at that height; a 32-byte hash (where the schema allows one): any
 *   stored block, canonical or not; an EIP-1898 object: `{blockNumber}` as that number or tag, `{blockHash}`
 *   as that hash, and with `requireCanonical: true` a stored block off the canonical chain is -32000;
 * - `earliest` = genesis, `latest` = the head (also when the optional param is absent);
 * - `safe` and `finalized`: no block of a proof-of-work chain is ever either, so -39001 "Unknown block", what
 *   the standard prescribes before the merge;
 * - `pending` for block reads: the block this node would mine next, assembled from the pool's executable
 *   transactions on top of the head (unsealed: zero nonce and mixHash), built fresh on every call;
 * - `pending` for state reads: the head's state. Pool transactions are not applied; only
 *   eth_getTransactionCount counts them (the sender's next nonce), see `pendingNonce`.
 *
 * Lookups answer `undefined` when the block is unknown (handlers return null); state reads throw -32001.
 */
import type { Block } from '@ethereumjs/block';
import {
  type BlockRef,
  type ChainEngine,
  type TxReceipt,
  historyNotHeldMessage,
  StateNotHeldError,
  StateNotKeptError,
  type StateView,
} from '../chain/index.js';
import type { BlockNumberOrTagOrHash } from '../generated/types.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import type { HandlerContext } from '../rpc/context.js';
import { bytesFromHex, fromQuantity, hexFromBytes } from './hex.js';

/** The chain engine, or -32002 when none is attached (transport unit tests run without one). */
export function engineOf(ctx: HandlerContext): ChainEngine {
  const engine = ctx.node.engine;
  if (engine === undefined)
    throw new RpcError(ErrorCode.ResourceUnavailable, 'Resource unavailable: the chain engine is not running');
  return engine;
}

/** -32001 naming the block as the caller gave it. */
export const blockNotFound = (ref: string): RpcError =>
  new RpcError(ErrorCode.ResourceNotFound, `Block ${ref} not found`);

/** The standard's code for `safe`/`finalized` before the merge (execution-apis BlockTag). */
export const UNKNOWN_BLOCK = -39001;

/** -39001 for `safe`/`finalized`. */
export const unknownBlockTag = (tag: 'safe' | 'finalized'): RpcError =>
  new RpcError(UNKNOWN_BLOCK, `Unknown block: Ethereum Classic is proof-of-work, no block is ever ${tag}`);

/** -32000, EIP-1898's recommendation for a `requireCanonical` block that is not canonical. */
const notCanonical = (hash: Uint8Array): RpcError =>
  new RpcError(
    ErrorCode.ServerError,
    `Block ${hexFromBytes(hash)} is not on the canonical chain (requireCanonical is true)`,
  );

/** A block param as the block and state methods take it, or absent (= `latest`). */
export type BlockParam = BlockNumberOrTagOrHash | undefined;

/** What a block param names, tags and EIP-1898 objects unwrapped. */
type Target =
  | { readonly kind: 'latest' | 'earliest' | 'pending' }
  | { readonly kind: 'number'; readonly number: bigint }
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly requireCanonical: boolean };

/** Reads a block param; `safe`/`finalized` throw -39001. */
function targetOf(ref: BlockParam): Target {
  if (ref === undefined) return { kind: 'latest' };
  if (typeof ref === 'object') {
    if ('blockHash' in ref)
      return { kind: 'hash', hash: bytesFromHex(ref.blockHash), requireCanonical: ref.requireCanonical === true };
    return targetOf(ref.blockNumber);
  }
  switch (ref) {
    case 'latest':
    case 'earliest':
    case 'pending':
      return { kind: ref };
    case 'safe':
    case 'finalized':
      throw unknownBlockTag(ref);
  }
  return isHash(ref)
    ? { kind: 'hash', hash: bytesFromHex(ref), requireCanonical: false }
    : { kind: 'number', number: fromQuantity(ref) };
}

/** The block as the caller named it, for -32001 messages. */
function refText(ref: BlockParam): string {
  if (ref === undefined) return 'latest';
  if (typeof ref === 'string') return ref;
  return 'blockHash' in ref ? ref.blockHash : ref.blockNumber;
}

/** Whether the param is `pending` (also as `{blockNumber: "pending"}`). */
export const isPending = (ref: BlockParam): boolean => targetOf(ref).kind === 'pending';

/** A block picked by a parameter. */
export interface ResolvedBlock {
  readonly block: Block;
  readonly hash: Uint8Array;
  /** The pending block: assembled from the pool, not stored, not sealed. */
  readonly pending: boolean;
  /** Set for the pending block (stored blocks' receipts come from the engine: `receiptsOf`). */
  readonly receipts?: readonly TxReceipt[];
}

const isHash = (ref: string): boolean => ref.length === 66;

const stored = (block: Block | undefined): ResolvedBlock | undefined =>
  block === undefined ? undefined : { block, hash: block.hash(), pending: false };

/** The block a parameter names, or undefined when this node does not have it. */
export async function findBlock(engine: ChainEngine, ref: BlockNumberOrTagOrHash): Promise<ResolvedBlock | undefined> {
  const target = targetOf(ref);
  switch (target.kind) {
    case 'latest':
      return stored(engine.chain.getHead());
    case 'earliest':
      return stored(engine.chain.getGenesis());
    case 'pending':
      return pendingBlock(engine);
    case 'number': {
      const block = await engine.chain.getBlock(target.number);
      if (block === undefined) assertHistoryHeld(engine, target.number);
      return stored(block);
    }
    case 'hash': {
      const block = await engine.chain.getBlock(target.hash);
      if (block === undefined) await assertHashHistoryHeld(engine, target.hash);
      if (block !== undefined && target.requireCanonical && !(await engine.chain.isCanonical(target.hash)))
        throw notCanonical(target.hash);
      return stored(block);
    }
  }
}

export async function findBlockByHash(engine: ChainEngine, hash: string): Promise<ResolvedBlock | undefined> {
  const block = await engine.chain.getBlock(bytesFromHex(hash));
  if (block === undefined) await assertHashHistoryHeld(engine, bytesFromHex(hash));
  return stored(block);
}

/**
 * -32000 for a block below the snap-sync base whose body and receipts have not been backfilled yet: its header is
 * here, but answering without its transactions would make it look empty, and null would say it does not exist.
 */
export function assertHistoryHeld(engine: ChainEngine, number: bigint): void {
  const first = engine.chain.history.firstLacking(number, number);
  if (first !== undefined) throw historyNotHeld(engine, first);
}

async function assertHashHistoryHeld(engine: ChainEngine, hash: Uint8Array): Promise<void> {
  const header = await engine.chain.getHeader(hash);
  if (header !== undefined && (await engine.chain.isCanonical(hash))) assertHistoryHeld(engine, header.number);
}

const historyNotHeld = (engine: ChainEngine, number: bigint): RpcError =>
  new RpcError(ErrorCode.ServerError, historyNotHeldMessage(number, engine.chain.history.frontier()!));

/** The next block as this node's miner would build it now; never cached (the pool changes under it). */
async function pendingBlock(engine: ChainEngine): Promise<ResolvedBlock> {
  const assembled = await engine.chain.assemble({
    transactions: (function* () {
      for (const pooled of engine.pool.executable()) yield pooled.tx;
    })(),
    coinbase: engine.miner.coinbase,
    extraData: engine.miner.extraData,
  });
  const block = assembled.template;
  return { block, hash: block.hash(), pending: true, receipts: assembled.receipts };
}

/** Receipts in transaction order. */
export async function receiptsOf(engine: ChainEngine, resolved: ResolvedBlock): Promise<readonly TxReceipt[]> {
  if (resolved.receipts !== undefined) return resolved.receipts;
  const receipts = await engine.chain.getReceipts(resolved.hash);
  if (receipts === undefined) assertHistoryHeld(engine, resolved.block.header.number);
  if (receipts === undefined) throw new Error(`block ${resolved.block.header.number}: stored without receipts`);
  return receipts;
}

/** Total difficulty including the block; for the pending block, the head's plus its own difficulty. */
export async function totalDifficultyOf(engine: ChainEngine, resolved: ResolvedBlock): Promise<bigint> {
  if (resolved.pending) return engine.chain.getHeadTotalDifficulty() + resolved.block.header.difficulty;
  const td = await engine.chain.getTotalDifficulty(resolved.hash);
  if (td === undefined) throw new Error(`block ${resolved.block.header.number}: stored without total difficulty`);
  return td;
}

/**
 * The engine's reference to the block whose state a param names (`pending` = the head), checked to exist:
 * -32001 when it does not, -32000 for a `requireCanonical` block off the canonical chain.
 */
export async function stateRefOf(engine: ChainEngine, ref: BlockParam): Promise<BlockRef> {
  const target = targetOf(ref);
  switch (target.kind) {
    case 'latest':
    case 'pending':
      return 'latest';
    case 'earliest':
      return 'earliest';
    case 'number':
      if (target.number > engine.chain.getHead().header.number) throw blockNotFound(refText(ref));
      return target.number;
    case 'hash':
      if ((await engine.chain.getHeader(target.hash)) === undefined) throw blockNotFound(refText(ref));
      if (target.requireCanonical && !(await engine.chain.isCanonical(target.hash))) throw notCanonical(target.hash);
      return target.hash;
  }
}

/**
 * The block's `lastCheckpointNumber` (ECIP-1097): undefined on networks without checkpointing; for the pending
 * block, the head's (a block the miner assembles is never a checkpoint).
 */
export async function lastCheckpointOf(engine: ChainEngine, resolved: ResolvedBlock): Promise<bigint | undefined> {
  if (engine.chain.federation === undefined) return undefined;
  if (resolved.pending) return engine.chain.getHeadLastCheckpoint();
  return engine.chain.getLastCheckpointNumber(resolved.hash);
}

/**
 * An engine read of a block's state, with the engine's "not held" (a block below the snap-sync base) and "not kept"
 * (a state `--gcmode full` does not keep) as -32000 in its own words: the caller learns the block it may ask from
 * instead of a missing-trie-node fault.
 */
export async function heldState<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    throw stateReadAnswer(err);
  }
}

/** -32000 for a state this node does not have (`data` names the oldest one it keeps), else `err` unchanged. */
export function stateReadAnswer(err: unknown): unknown {
  if (err instanceof StateNotHeldError) return new RpcError(ErrorCode.ServerError, err.message);
  if (err instanceof StateNotKeptError)
    return new RpcError(ErrorCode.ServerError, err.message, {
      block: `0x${err.block.toString(16)}`,
      oldestKept: `0x${err.oldestKept.toString(16)}`,
    });
  return err;
}

/** The state after the block a parameter names (`pending` = the head); -32001 when the block is unknown. */
export async function stateAt(engine: ChainEngine, ref: BlockParam): Promise<StateView> {
  const state = await heldState(engine.chain.stateAt(await stateRefOf(engine, ref)));
  if (state === undefined) throw blockNotFound(refText(ref));
  return state;
}

/** The stored block whose state a param names (`pending` = the head), as `stateAt` checks it. */
export async function stateBlockOf(engine: ChainEngine, ref: BlockParam): Promise<Block> {
  const block = await engine.chain.getBlock(await stateRefOf(engine, ref));
  if (block === undefined) throw blockNotFound(refText(ref));
  return block;
}

/** The next nonce of `address` counting its executable pool transactions; undefined if the pool holds none. */
export function pendingNonce(engine: ChainEngine, address: string): bigint | undefined {
  return engine.pool.pendingNonce(address);
}
