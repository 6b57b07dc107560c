/**
 * External miners (eth_getWork / eth_submitWork / eth_submitHashrate): a prepared template's pow hash is handed out,
 * a solution for it is checked, sealed and imported. Runs beside whichever policy `start()` runs, PoW chains only.
 */
import { equalsBytes } from '@ethereumjs/util';
import type { ImportResult } from '../../blockchain/blockchain.js';
import { sealHash } from '../../pow/ethash.js';
import { ReportedHashrates } from '../hashrate.js';
import type { BlockProduction } from '../production.js';
import { WorkBook, type MiningWork } from '../work-book.js';

export interface ExternalWorkOptions {
  readonly preparedWorkLimit: number;
  readonly activityTimeoutMs: number;
  readonly now: () => number;
}

export class ExternalWork {
  private readonly workBook: WorkBook;
  private readonly reported: ReportedHashrates;
  private readonly now: () => number;
  private readonly activityTimeoutMs: number;
  private currentWork:
    | { readonly parentHash: Uint8Array; readonly poolVersion: number; readonly work: MiningWork }
    | undefined;
  private preparing: Promise<MiningWork> | undefined;
  /** Bumped whenever the candidate transactions may have changed (pool events, head changes). */
  private poolVersion = 0;
  private lastActivity = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly core: BlockProduction,
    options: ExternalWorkOptions,
  ) {
    this.workBook = new WorkBook(options.preparedWorkLimit);
    this.now = options.now;
    this.activityTimeoutMs = options.activityTimeoutMs;
    this.reported = new ReportedHashrates(this.now, this.activityTimeoutMs);
  }

  /** An external miner called within the activity timeout. */
  get active(): boolean {
    return this.now() - this.lastActivity < this.activityTimeoutMs;
  }

  /** The sum of the current hash-rate reports. */
  reportedRate(): bigint {
    return this.reported.total();
  }

  onNewHead(): void {
    this.poolVersion++;
    this.currentWork = undefined;
  }

  onPoolChanged(): void {
    this.poolVersion++;
  }

  templatesChanged(): void {
    this.currentWork = undefined;
  }

  /** The package of the prepared block on the current head (re-prepared when the head or the pool changed). */
  async getWork(): Promise<MiningWork> {
    this.lastActivity = this.now();
    const current = this.currentWork;
    if (
      current !== undefined &&
      current.poolVersion === this.poolVersion &&
      equalsBytes(current.parentHash, this.core.chain.getHead().hash())
    ) {
      return current.work;
    }
    this.preparing ??= this.prepare().finally(() => {
      this.preparing = undefined;
    });
    return this.preparing;
  }

  /**
   * True when `powHash` names a prepared block on the current head, the nonce and mix digest seal it, and it
   * imports as the new head; false otherwise (unknown or stale work, a wrong seal).
   */
  async submitWork(nonce: Uint8Array, powHash: Uint8Array, mixDigest: Uint8Array): Promise<boolean> {
    const { core } = this;
    this.lastActivity = this.now();
    if (nonce.length !== 8 || powHash.length !== 32 || mixDigest.length !== 32) return false;
    const prepared = this.workBook.get(powHash);
    if (prepared === undefined) return false;
    return core.exclusive(async () => {
      if (!equalsBytes(core.chain.getHead().hash(), prepared.parentHash)) return false;
      const header = prepared.assembled.template.header;
      const check = await core.pow.verifySeal({
        powHash,
        nonce,
        mixDigest,
        difficulty: header.difficulty,
        blockNumber: header.number,
      });
      if (!check.valid) return false;
      // Checked just above: import need not hash it again.
      const block = prepared.assembled.seal(nonce, mixDigest, true);
      let result: ImportResult;
      try {
        result = await core.chain.importBlock(block);
      } catch (err) {
        core.report(err);
        return false;
      }
      this.workBook.delete(powHash);
      await core.settle(prepared.assembled, block, result, true);
      return result.status === 'head';
    });
  }

  /** Records an external miner's rate (the latest report per client id counts). */
  submitHashrate(rate: bigint, clientId: Uint8Array | string): boolean {
    this.lastActivity = this.now();
    this.reported.submit(rate, clientId);
    return true;
  }

  private async prepare(): Promise<MiningWork> {
    const { core } = this;
    const parentHash = core.chain.getHead().hash();
    const poolVersion = this.poolVersion;
    const assembled = await core.assemble(parentHash);
    const header = assembled.template.header;
    const powHash = sealHash(header);
    const { seedHash, boundary } = core.pow.workPackage(powHash, header.difficulty, header.number);
    const work: MiningWork = { powHash, seedHash, boundary, blockNumber: header.number };
    this.workBook.add({ work, assembled, parentHash });
    this.currentWork = { parentHash, poolVersion, work };
    return work;
  }
}
