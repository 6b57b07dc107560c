/**
 * Receipts as a peer sends them (eth/68 Receipts: the consensus fields only) made into the engine's stored form,
 * and checked against the block's header first: the sender is recovered from each transaction, the gas used is
 * the step of the cumulative gas, the created address follows from sender and nonce, and the bloom is recomputed
 * from the logs. The list is accepted only when its receiptsRoot and the last cumulative gas equal the header's.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, createContractAddress, equalsBytes } from '@ethereumjs/util';
import { logsBloomOf, type ReceiptLog, receiptsRoot, type TxReceipt } from '../codec/receipts.js';

/** One receipt's consensus fields, decoded from the wire. */
export interface ConsensusReceipt {
  readonly type: number;
  /** Empty or 0x01 (status) from Byzantium on, a 32-byte post-state root before. */
  readonly statusOrRoot: Uint8Array;
  readonly cumulativeGasUsed: bigint;
  readonly logs: readonly ReceiptLog[];
}

/** The stored receipts of `block`, or the reason the peer's list is not the block's. */
export function receiptsOfBlock(
  block: Block,
  sent: readonly ConsensusReceipt[],
  common: Common,
): { readonly receipts: TxReceipt[] } | { readonly wrong: string } {
  const { header, transactions } = block;
  if (sent.length !== transactions.length)
    return { wrong: `${sent.length} receipts for block ${header.number} with ${transactions.length} transactions` };
  const receipts: TxReceipt[] = [];
  let previous = 0n;
  for (let i = 0; i < sent.length; i++) {
    const r = sent[i]!;
    const tx = transactions[i]!;
    if (r.type !== tx.type) return { wrong: `receipt ${i} of block ${header.number} has type ${r.type}` };
    if (r.cumulativeGasUsed < previous)
      return { wrong: `receipt ${i} of block ${header.number}: cumulative gas goes down` };
    const from = tx.getSenderAddress();
    receipts.push({
      type: r.type,
      ...(r.statusOrRoot.length === 32
        ? { stateRoot: r.statusOrRoot }
        : { status: r.statusOrRoot.length === 1 && r.statusOrRoot[0] === 1 ? 1 : 0 }),
      cumulativeGasUsed: r.cumulativeGasUsed,
      gasUsed: r.cumulativeGasUsed - previous,
      logs: r.logs,
      logsBloom: logsBloomOf(r.logs, common),
      from: from.bytes,
      ...(tx.to === undefined ? { contractAddress: createContractAddress(from, tx.nonce).bytes } : {}),
    });
    previous = r.cumulativeGasUsed;
  }
  if (previous !== header.gasUsed)
    return { wrong: `receipts of block ${header.number} use ${previous} gas, the header says ${header.gasUsed}` };
  const root = receiptsRoot(receipts, common);
  if (!equalsBytes(root, header.receiptTrie))
    return { wrong: `receipts of block ${header.number} have root ${bytesToHex(root)}, not the header's` };
  return { receipts };
}
