/**
 * The checkpoint block (ECIP-1097 "Data Structures"): a child of the checkpointed block that every federation
 * node builds identically from the parent and the signatures. It has an empty body, earns no reward, is not
 * executed and has no proof of work.
 */
import { Block, type BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { Ecip1097Header } from './header.js';
import { sortSignatures, type CheckpointSignature } from './signature.js';

const EMPTY = new Uint8Array(0);

export function buildCheckpointBlock(
  parent: BlockHeader,
  signatures: readonly CheckpointSignature[],
  common: Common,
): Block {
  const header = new Ecip1097Header(
    {
      parentHash: parent.hash(),
      uncleHash: KECCAK256_RLP_ARRAY,
      coinbase: new Uint8Array(20),
      stateRoot: parent.stateRoot,
      transactionsTrie: KECCAK256_RLP,
      receiptTrie: KECCAK256_RLP,
      logsBloom: new Uint8Array(256),
      difficulty: parent.difficulty,
      number: parent.number + 1n,
      gasLimit: parent.gasLimit,
      gasUsed: 0n,
      // parent + 1, not the clock: every federation node must build the same block (same hash).
      timestamp: parent.timestamp + 1n,
      extraData: EMPTY,
      mixHash: EMPTY,
      nonce: EMPTY,
    },
    { common },
    { signatures: sortSignatures(signatures) },
  );
  return new Block(header, [], [], undefined, { common });
}
