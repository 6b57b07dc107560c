/**
 * The execution-apis Receipt object: `to` is null for a creation, `effectiveGasPrice` is the gas price (ETC
 * has no base fee), `type` follows the transaction, logs count their index across the whole block, and a
 * receipt carries `status` from Atlantis (Byzantium rules) on or the post-transaction state `root` before.
 */
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { TxReceipt } from '../../chain/index.js';
import type { Receipt } from '../../generated/types.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { formatLog } from './log.js';
import type { TxPosition } from './transaction.js';

/** Block-wide index of the first log of receipt `index`: the logs of the receipts before it. */
export function firstLogIndexOf(receipts: readonly TxReceipt[], index: number): number {
  let count = 0;
  for (let i = 0; i < index; i++) count += receipts[i].logs.length;
  return count;
}

export function formatReceipt(
  receipt: TxReceipt,
  tx: TypedTransaction,
  at: TxPosition & { readonly blockTimestamp: bigint },
  firstLogIndex: number,
): Receipt {
  const transactionHash = tx.hash();
  const out: Receipt = {
    type: tx.type === 1 ? '0x1' : '0x0',
    transactionHash: hexFromBytes(transactionHash),
    transactionIndex: toQuantity(at.index),
    blockHash: hexFromBytes(at.blockHash),
    blockNumber: toQuantity(at.blockNumber),
    from: hexFromBytes(receipt.from),
    to: tx.to ? hexFromBytes(tx.to.bytes) : null,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    gasUsed: toQuantity(receipt.gasUsed),
    effectiveGasPrice: toQuantity((tx as { gasPrice: bigint }).gasPrice),
    contractAddress: receipt.contractAddress ? hexFromBytes(receipt.contractAddress) : null,
    logs: receipt.logs.map((log, i) =>
      formatLog({
        ...log,
        blockNumber: at.blockNumber,
        blockHash: at.blockHash,
        blockTimestamp: at.blockTimestamp,
        transactionHash,
        transactionIndex: at.index,
        logIndex: firstLogIndex + i,
        removed: false,
      }),
    ),
    logsBloom: hexFromBytes(receipt.logsBloom),
  };
  if (receipt.stateRoot !== undefined) out.root = hexFromBytes(receipt.stateRoot);
  else out.status = receipt.status === 1 ? '0x1' : '0x0';
  return out;
}

/** Every receipt of a block, in transaction order (`receipts` as the engine stored them for `block`). */
export function formatBlockReceipts(block: Block, receipts: readonly TxReceipt[], blockHash = block.hash()): Receipt[] {
  const out: Receipt[] = [];
  let logIndex = 0;
  for (let index = 0; index < receipts.length; index++) {
    out.push(
      formatReceipt(
        receipts[index],
        block.transactions[index],
        { blockHash, blockNumber: block.header.number, blockTimestamp: block.header.timestamp, index },
        logIndex,
      ),
    );
    logIndex += receipts[index].logs.length;
  }
  return out;
}
