/**
 * The sealed header of an assembled block as a copy of its execution header (the one the transactions ran under),
 * instead of a second run of the library's constructor. The two differ only in what the execution and the seal
 * gave: state, transactions and receipts roots, bloom, gas used, mix hash and nonce. The library's constructor
 * copies its Common, converts and checks every field, asks the Common about a dozen EIPs and walks its hardforks for
 * the DAO rule (~15-25 µs a header, perf of a one-transaction dev block); for those seven fields it only checks
 * their lengths and that the gas used is within the gas limit, which `copyable` checks here (anything else: the
 * library's header, with its own error).
 *
 * Proven before use, as header-run.ts does for bulk runs: the first copy of each header class is compared with the
 * library's header from the same data (own fields, encoding, hash); copies are used only once one agreed, and never
 * after one did not. Proof-of-work rules only (Clique and proof-of-stake check the seal fields' contents).
 * test/chain/assembly/sealed-header.test.ts compares copies with the library's headers.
 */
import type { BlockHeader, HeaderData } from '@ethereumjs/block';
import { ProvenCopies, type Writable } from './proven-copies.js';

/** What the execution and the seal add to the execution header. */
export interface SealFields {
  readonly stateRoot: Uint8Array;
  readonly transactionsTrie: Uint8Array;
  readonly receiptTrie: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly gasUsed: bigint;
  readonly mixHash: Uint8Array;
  readonly nonce: Uint8Array;
}

export class SealedHeaders {
  private readonly copies = new ProvenCopies();

  /** `build`: the library's constructor as the assembly uses it (`data` the execution header's data and `fields`). */
  sealed(
    env: BlockHeader,
    data: HeaderData,
    fields: SealFields,
    build: (data: HeaderData) => BlockHeader,
  ): BlockHeader {
    const library = () => build({ ...data, ...fields });
    if (!copyable(env, fields)) return library();
    return this.copies.copy(env, fields, withSealFields, library);
  }
}

function withSealFields(copy: Writable, fields: SealFields): void {
  copy.stateRoot = fields.stateRoot;
  copy.transactionsTrie = fields.transactionsTrie;
  copy.receiptTrie = fields.receiptTrie;
  copy.logsBloom = fields.logsBloom;
  copy.gasUsed = fields.gasUsed;
  copy.mixHash = fields.mixHash;
  copy.nonce = fields.nonce;
}

/** The constructor's checks on the seven fields, and rules under which it checks nothing else of them. */
function copyable(env: BlockHeader, fields: SealFields): boolean {
  return (
    env.common.consensusType() === 'pow' &&
    fields.stateRoot.length === 32 &&
    fields.transactionsTrie.length === 32 &&
    fields.receiptTrie.length === 32 &&
    fields.logsBloom.length === 256 &&
    fields.mixHash.length === 32 &&
    fields.nonce.length === 8 &&
    fields.gasUsed >= 0n &&
    fields.gasUsed <= env.gasLimit
  );
}
