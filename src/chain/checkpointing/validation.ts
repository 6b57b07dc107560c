/**
 * ECIP-1097 header rules (Mantis `BlockWithCheckpointHeaderValidator` and `validateExtraFields`):
 *
 * - every header from the activation block on carries the 16th field, and none before it;
 * - a checkpoint header has no more signatures than the federation has keys (checked first, before any
 *   recovery: a DoS guard), its signatures sorted by (r, s, v), each recovering over the **parent hash** to a
 *   distinct federation key (any invalid one rejects the block), at least `minSignatures` of them, and the
 *   fields a checkpoint block copies or leaves empty as `buildCheckpointBlock` makes them.
 *
 * Each fault says which rule failed, so that RPC callers and logs can tell a bad signature from a missing one.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex, equalsBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import type { Federation } from './federation.js';
import { hasCheckpointField, type Checkpoint } from './header.js';
import { compareSignatures, recoverSigner, signatureHex } from './signature.js';

export type CheckpointFaultCode =
  /** A header from the activation block on without the 16th field. */
  | 'missing-checkpoint-field'
  /** The 16th field before the activation block, or on a chain without checkpointing. */
  | 'unexpected-checkpoint-field'
  | 'too-many-signatures'
  | 'unsorted-signatures'
  /** A signature that recovers to no public key (v not 27/28, r or s zero or out of range). */
  | 'invalid-signature'
  /** A signature that recovers to a key outside the federation (also what a signature over another hash gives). */
  | 'not-federation-signer'
  | 'duplicate-signer'
  | 'too-few-signatures'
  /** A field the checkpoint block must leave empty or copy from its parent does not match. */
  | 'malformed-checkpoint-block';

export interface CheckpointFault {
  readonly code: CheckpointFaultCode;
  readonly message: string;
}

const fault = (code: CheckpointFaultCode, message: string): CheckpointFault => ({ code, message });

/** The 16th field present exactly where the federation's activation demands it (regular and checkpoint headers). */
export function checkpointFieldFault(
  header: BlockHeader,
  federation: Federation | undefined,
): CheckpointFault | undefined {
  const present = hasCheckpointField(header);
  if (federation === undefined) {
    return present
      ? fault(
          'unexpected-checkpoint-field',
          'the header has an ECIP-1097 checkpoint field, but this chain has no checkpointing',
        )
      : undefined;
  }
  const required = federation.activeAt(header.number);
  if (required && !present)
    return fault(
      'missing-checkpoint-field',
      `the header lacks the ECIP-1097 checkpoint field, required from block ${federation.activationBlock}`,
    );
  if (!required && present)
    return fault(
      'unexpected-checkpoint-field',
      `the header has an ECIP-1097 checkpoint field before its activation at block ${federation.activationBlock}`,
    );
  return undefined;
}

/** The signature rules: count, order, recovery over the parent hash, federation membership, distinct signers, threshold. */
export function checkpointSignatureFault(
  checkpoint: Checkpoint,
  parentHash: Uint8Array,
  federation: Federation,
): CheckpointFault | undefined {
  const sigs = checkpoint.signatures;
  const keys = federation.publicKeys.length;
  if (sigs.length > keys)
    return fault('too-many-signatures', `${sigs.length} signatures, but the federation has only ${keys} members`);
  for (let i = 1; i < sigs.length; i++) {
    if (compareSignatures(sigs[i - 1]!, sigs[i]!) > 0)
      return fault('unsorted-signatures', `signatures ${i - 1} and ${i} are not in ascending (r, s, v) order`);
  }
  const signers = new Map<string, number>();
  for (let i = 0; i < sigs.length; i++) {
    const sig = sigs[i]!;
    const key = recoverSigner(parentHash, sig);
    if (key === undefined) {
      return fault(
        'invalid-signature',
        `signature ${i} (${signatureHex(sig)}) is invalid: it recovers to no public key (v must be 27 or 28, r and s in range)`,
      );
    }
    const keyHex = bytesToHex(key);
    if (!federation.isMember(key)) {
      return fault(
        'not-federation-signer',
        `signature ${i} recovers to ${keyHex}, which is not a federation member (or it signs another hash than block ${bytesToHex(parentHash)})`,
      );
    }
    const earlier = signers.get(keyHex);
    if (earlier !== undefined)
      return fault('duplicate-signer', `signatures ${earlier} and ${i} are from the same federation member ${keyHex}`);
    signers.set(keyHex, i);
  }
  if (sigs.length < federation.minSignatures) {
    return fault(
      'too-few-signatures',
      `${sigs.length} valid signature${sigs.length === 1 ? '' : 's'}, but ${federation.minSignatures} of the ${keys} federation members must sign`,
    );
  }
  return undefined;
}

/** The fields §5.3 fixes: empty ones, ones copied from the parent, gasUsed 0 and timestamp parent + 1. */
export function checkpointBlockFieldFault(header: BlockHeader, parent: BlockHeader): CheckpointFault | undefined {
  const bad = (message: string) => fault('malformed-checkpoint-block', message);
  if (!header.coinbase.isZero()) return bad('beneficiary is not the zero address');
  if (!equalsBytes(header.uncleHash, KECCAK256_RLP_ARRAY)) return bad('ommersHash is not that of an empty list');
  if (!equalsBytes(header.transactionsTrie, KECCAK256_RLP)) return bad('transactionsRoot is not the empty trie');
  if (!equalsBytes(header.receiptTrie, KECCAK256_RLP)) return bad('receiptsRoot is not the empty trie');
  if (header.logsBloom.some((b) => b !== 0)) return bad('logsBloom is not empty');
  if (header.extraData.length !== 0) return bad('extraData is not empty');
  if (header.nonce.length !== 0) return bad('nonce is not empty');
  if (header.mixHash.length !== 0) return bad('mixHash is not empty');
  if (!equalsBytes(header.stateRoot, parent.stateRoot)) return bad("stateRoot differs from the parent's");
  if (header.gasLimit !== parent.gasLimit) return bad("gasLimit differs from the parent's");
  if (header.difficulty !== parent.difficulty) return bad("difficulty differs from the parent's");
  if (header.gasUsed !== 0n) return bad('gasUsed is not 0');
  if (header.timestamp !== parent.timestamp + 1n)
    return bad(`timestamp is not the parent's + 1 (${parent.timestamp + 1n})`);
  return undefined;
}

/** Every rule for a checkpoint header (its number following the parent's is checked by the importer). */
export function checkpointHeaderFault(
  header: BlockHeader,
  checkpoint: Checkpoint,
  parent: BlockHeader,
  federation: Federation | undefined,
): CheckpointFault | undefined {
  return (
    checkpointFieldFault(header, federation) ??
    checkpointSignatureFault(checkpoint, parent.hash(), federation!) ??
    checkpointBlockFieldFault(header, parent)
  );
}
