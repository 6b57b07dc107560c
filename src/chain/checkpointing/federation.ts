/**
 * A network's checkpointing settings, checked once and indexed for validation: the activation block, the
 * federation's keys (looked up by hex) and the number of signatures a checkpoint needs.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { CheckpointingDefinition } from '../networks/types.js';

export class Federation {
  readonly activationBlock: bigint;
  readonly publicKeys: readonly Uint8Array[];
  readonly minSignatures: number;
  private readonly members: ReadonlySet<string>;

  constructor(def: CheckpointingDefinition) {
    if (def.activationBlock < 0n)
      throw new Error(`checkpointing activation block must not be negative, got ${def.activationBlock}`);
    const keys = def.federationPublicKeys;
    if (keys.length === 0) throw new Error('checkpointing needs at least one federation public key');
    for (const key of keys) {
      if (key.length !== 64)
        throw new Error(
          `a federation public key must be 64 bytes (uncompressed, no 0x04 prefix), got ${key.length}: ${bytesToHex(key)}`,
        );
    }
    const members = new Set(keys.map((k) => bytesToHex(k)));
    if (members.size !== keys.length) throw new Error('the federation public keys must be distinct');
    const min = def.minSignatures ?? Math.floor(keys.length / 2) + 1;
    if (!Number.isInteger(min) || min < 1 || min > keys.length) {
      throw new Error(`checkpointing needs between 1 and ${keys.length} signatures (the federation size), got ${min}`);
    }
    this.activationBlock = def.activationBlock;
    this.publicKeys = keys;
    this.minSignatures = min;
    this.members = members;
  }

  isMember(publicKey: Uint8Array): boolean {
    return this.members.has(bytesToHex(publicKey));
  }

  /** Must a header at this height carry the 16th field? (The genesis never does: it is built, not validated.) */
  activeAt(number: bigint): boolean {
    return number >= this.activationBlock && number > 0n;
  }
}
