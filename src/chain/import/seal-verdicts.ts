/**
 * Seal verdicts computed ahead of import (a batch on worker threads), keyed by header hash and handed out once.
 * Bounded: verdicts of blocks that never get imported (a batch cut short by an invalid block) are dropped oldest
 * first, and a header without a verdict is simply checked again.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';

const MAX_VERDICTS = 20_000;

export class SealVerdicts {
  private readonly verdicts = new Map<string, true | string>();

  note(header: BlockHeader, verdict: true | string): void {
    const key = bytesToHex(header.hash());
    this.verdicts.delete(key);
    this.verdicts.set(key, verdict);
    while (this.verdicts.size > MAX_VERDICTS) this.verdicts.delete(this.verdicts.keys().next().value as string);
  }

  /** Drops the verdicts of headers that will not be imported (a stopped import's read-ahead). */
  forget(header: BlockHeader): void {
    this.verdicts.delete(bytesToHex(header.hash()));
  }

  take(header: BlockHeader): true | string | undefined {
    const key = bytesToHex(header.hash());
    const verdict = this.verdicts.get(key);
    if (verdict !== undefined) this.verdicts.delete(key);
    return verdict;
  }
}
