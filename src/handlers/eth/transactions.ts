/**
 * Where transactions are found, shared by the transaction, raw-transaction and receipt handlers: the pool
 * first (pending: no block fields), then the canonical chain's transaction index.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { ChainEngine, TxReceipt } from '../../chain/index.js';
import { receiptsOf, type ResolvedBlock } from '../block-ref.js';
import { bytesFromHex, fromQuantity } from '../hex.js';
import type { TxPosition } from '../format/index.js';

export interface FoundTransaction {
  readonly tx: TypedTransaction;
  readonly from: Uint8Array;
  /** Absent while the transaction waits in the pool (or sits in the unsealed pending block). */
  readonly at?: TxPosition;
}

export interface MinedTransaction extends FoundTransaction {
  readonly at: TxPosition & { readonly blockTimestamp: bigint };
  /** Every receipt of the block (log indexes count across it); `receipts[at.index]` is this transaction's. */
  readonly receipts: readonly TxReceipt[];
}

/** A canonical transaction by hash, with its block's receipts. */
export async function findMined(engine: ChainEngine, hash: string): Promise<MinedTransaction | undefined> {
  const location = await engine.chain.getTransactionLocation(bytesFromHex(hash));
  if (location === undefined) return undefined;
  const [block, receipts] = await Promise.all([
    engine.chain.getBlock(location.blockHash),
    engine.chain.getReceipts(location.blockHash),
  ]);
  if (block === undefined || receipts === undefined) return undefined;
  // The index lands in LevelDB a moment before the engine moves its head; until then the block is not
  // announced, and a receipt must not be visible while eth_blockNumber and state reads still show the parent.
  if (block.header.number > engine.chain.getHead().header.number) return undefined;
  const { index } = location;
  return {
    tx: block.transactions[index],
    from: receipts[index].from,
    at: {
      blockHash: location.blockHash,
      blockNumber: block.header.number,
      blockTimestamp: block.header.timestamp,
      index,
    },
    receipts,
  };
}

/** A transaction by hash: a pooled one first, then the chain. */
export async function findTransaction(engine: ChainEngine, hash: string): Promise<FoundTransaction | undefined> {
  const pooled = engine.pool.get(hash);
  if (pooled !== undefined) return { tx: pooled.tx, from: pooled.sender.bytes };
  return findMined(engine, hash);
}

/** The transaction at `index` of a block, or undefined when the block is unknown or too short. */
export async function transactionAt(
  engine: ChainEngine,
  resolved: ResolvedBlock | undefined,
  index: string,
): Promise<FoundTransaction | undefined> {
  if (resolved === undefined) return undefined;
  const i = fromQuantity(index);
  const txs = resolved.block.transactions;
  if (i >= BigInt(txs.length)) return undefined;
  const n = Number(i);
  const receipts = await receiptsOf(engine, resolved);
  return {
    tx: txs[n],
    from: receipts[n].from,
    ...(resolved.pending
      ? {}
      : { at: { blockHash: resolved.hash, blockNumber: resolved.block.header.number, index: n } }),
  };
}
