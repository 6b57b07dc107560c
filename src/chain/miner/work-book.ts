/**
 * Blocks prepared for external miners (eth_getWork), keyed by the pow hash handed out, so that a solution
 * submitted for any of the last `limit` packages can still be sealed and imported (the product keeps 30).
 * Insertion-ordered: the oldest package is forgotten first.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { AssembledBlock } from '../blockchain/blockchain.js';

/** The eth_getWork package: pow hash, seed hash, boundary (2^256 / difficulty) and the block's number. */
export interface MiningWork {
  readonly powHash: Uint8Array;
  readonly seedHash: Uint8Array;
  readonly boundary: Uint8Array;
  readonly blockNumber: bigint;
}

export interface PreparedWork {
  readonly work: MiningWork;
  readonly assembled: AssembledBlock;
  /** The head the block was assembled on: a solution is stale once the head moved. */
  readonly parentHash: Uint8Array;
}

export class WorkBook {
  private readonly entries = new Map<string, PreparedWork>();

  constructor(private readonly limit = 30) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError('the prepared-work limit must be a positive integer');
  }

  add(entry: PreparedWork): void {
    const key = bytesToHex(entry.work.powHash);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value!);
  }

  get(powHash: Uint8Array): PreparedWork | undefined {
    return this.entries.get(bytesToHex(powHash));
  }

  delete(powHash: Uint8Array): void {
    this.entries.delete(bytesToHex(powHash));
  }

  get size(): number {
    return this.entries.size;
  }
}
