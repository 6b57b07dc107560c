/**
 * The Block object: execution-apis fields for a pre-London chain (mixHash included; no baseFeePerGas or
 * withdrawals) plus ETC's totalDifficulty and the ECIP-1097 fields. `checkpoint` is null except on a checkpoint
 * block (signatures and recovered signers); `lastCheckpointNumber` appears only where the network has
 * checkpointing (the caller passes it), rather than a made-up 0 on chains where checkpoints cannot exist.
 * Uncles have the same shape without `transactions` (an uncle's body is not part of the chain).
 */
import type { Block as EngineBlock, BlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import type { Block } from '../../generated/types.js';
import { checkpointOf, serializedBlockLength, type EngineMemo } from '../../chain/index.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { formatHeaderCheckpoint } from './checkpoint.js';
import { formatTransaction } from './transaction.js';

/** How to list a block's transactions: their hashes, or full objects with each sender (in block order). */
export type BlockTransactions =
  | { readonly full: false }
  | { readonly full: true; readonly senders: readonly Uint8Array[] };

function headerFields(
  memo: EngineMemo,
  header: BlockHeader,
  hash: Uint8Array,
  totalDifficulty: bigint,
  size: number,
  lastCheckpointNumber?: bigint,
): Block {
  const checkpoint = checkpointOf(header);
  return {
    number: toQuantity(header.number),
    hash: hexFromBytes(hash),
    parentHash: hexFromBytes(header.parentHash),
    nonce: hexFromBytes(header.nonce),
    mixHash: hexFromBytes(header.mixHash),
    sha3Uncles: hexFromBytes(header.uncleHash),
    logsBloom: hexFromBytes(header.logsBloom),
    transactionsRoot: hexFromBytes(header.transactionsTrie),
    stateRoot: hexFromBytes(header.stateRoot),
    receiptsRoot: hexFromBytes(header.receiptTrie),
    miner: hexFromBytes(header.coinbase.bytes),
    difficulty: toQuantity(header.difficulty),
    totalDifficulty: toQuantity(totalDifficulty),
    ...(lastCheckpointNumber !== undefined ? { lastCheckpointNumber: toQuantity(lastCheckpointNumber) } : {}),
    extraData: hexFromBytes(header.extraData),
    size: toQuantity(size),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.timestamp),
    checkpoint: checkpoint === undefined ? null : formatHeaderCheckpoint(memo, header, checkpoint),
    transactions: [],
    uncles: [],
  };
}

/**
 * Encoded sizes are immutable per block object; blocks come from the engine's cache, so with the size kept in the
 * engine's memo this rarely re-encodes.
 */
function sizeOf(memo: EngineMemo, block: EngineBlock): number {
  let size = memo.blockSizes.get(block);
  if (size === undefined) {
    size = serializedBlockLength(block);
    memo.blockSizes.set(block, size);
  }
  return size;
}

/**
 * `memo`: the engine's (engine-memo.ts), which keeps sizes and checkpoint signers. `lastCheckpointNumber`: the block's
 * latest checkpoint on a network with checkpointing, else undefined (omitted).
 */
export function formatBlock(
  memo: EngineMemo,
  block: EngineBlock,
  totalDifficulty: bigint,
  transactions: BlockTransactions,
  lastCheckpointNumber?: bigint,
): Block {
  const hash = block.hash();
  const out = headerFields(memo, block.header, hash, totalDifficulty, sizeOf(memo, block), lastCheckpointNumber);
  out.uncles = block.uncleHeaders.map((u) => hexFromBytes(u.hash()));
  if (!transactions.full) {
    out.transactions = block.transactions.map((tx) => hexFromBytes(tx.hash()));
  } else {
    const at = { blockHash: hash, blockNumber: block.header.number };
    out.transactions = block.transactions.map((tx, index) =>
      formatTransaction(tx, transactions.senders[index], { ...at, index }),
    );
  }
  return out;
}

/** An uncle (ommer) header as a block object without `transactions`; its size is that of a block made of the header alone. */
export function formatUncle(memo: EngineMemo, header: BlockHeader, totalDifficulty: bigint): Block {
  const out = headerFields(memo, header, header.hash(), totalDifficulty, RLP.encode([header.raw(), [], []]).length);
  delete out.transactions;
  return out;
}
