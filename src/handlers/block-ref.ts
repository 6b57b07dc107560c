/**
 * Block parameters → engine blocks and states, shared by the eth read handlers.
 *
 * - a hex number: the canonical block at that height; a 32-byte hash (where the schema allows one): any
 *   stored block, canonical or not;
 * - `earliest` = genesis, `latest` = the head;
 * - `pending` for block reads: the block this node would mine next, assembled from the pool's executable
 *   transactions on top of the head (unsealed: zero nonce and mixHash), built fresh on every call;
 * - `pending` for state reads: the head's state. Pool transactions are not applied; only
 *   eth_getTransactionCount counts them (the sender's next nonce), see `pendingNonce`.
 *
 * Lookups answer `undefined` when the block is unknown (handlers return null); state reads throw -32001.
 */
import type { Block } from '@ethereumjs/block';
import type { ChainEngine } from '../chain/engine.js';
import type { TxReceipt } from '../chain/exec/receipts.js';
import type { StateView } from '../chain/state/state-view.js';
import type { BlockNumberOrTag, BlockNumberOrTagOrHash } from '../generated/types.js';
import { ErrorCode, RpcError } from '../server/errors.js';
import type { HandlerContext } from './context.js';
import { bytesFromHex, fromQuantity } from './hex.js';

/** The chain engine, or -32002 when none is attached (transport unit tests run without one). */
export function engineOf(ctx: HandlerContext): ChainEngine {
  const engine = ctx.node.engine;
  if (engine === undefined) throw new RpcError(ErrorCode.ResourceUnavailable, 'Resource unavailable: the chain engine is not running');
  return engine;
}

/** -32001 naming the block as the caller gave it. */
export const blockNotFound = (ref: string): RpcError => new RpcError(ErrorCode.ResourceNotFound, `Block ${ref} not found`);

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
  switch (ref) {
    case 'latest':
      return stored(engine.chain.getHead());
    case 'earliest':
      return stored(engine.chain.getGenesis());
    case 'pending':
      return pendingBlock(engine);
  }
  return stored(await engine.chain.getBlock(isHash(ref) ? bytesFromHex(ref) : fromQuantity(ref)));
}

export async function findBlockByHash(engine: ChainEngine, hash: string): Promise<ResolvedBlock | undefined> {
  return stored(await engine.chain.getBlock(bytesFromHex(hash)));
}

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

/** The state after the block a parameter names (`pending` = the head); -32001 when the block is unknown. */
export async function stateAt(engine: ChainEngine, ref: BlockNumberOrTag): Promise<StateView> {
  const state = await engine.chain.stateAt(ref === 'pending' ? 'latest' : ref === 'latest' || ref === 'earliest' ? ref : fromQuantity(ref));
  if (state === undefined) throw blockNotFound(ref);
  return state;
}

/** The next nonce of `address` counting its executable pool transactions; undefined if the pool holds none. */
export function pendingNonce(engine: ChainEngine, address: string): bigint | undefined {
  return engine.pool.pendingNonce(address);
}
