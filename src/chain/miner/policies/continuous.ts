/**
 * The CPU miner of public networks (mordor, etc): mine back to back on the head, restarting when the head moves
 * or when transactions arrive while the template is empty.
 */
import type { Block } from '@ethereumjs/block';
import { equalsBytes } from '@ethereumjs/util';
import type { BlockProduction } from '../production.js';
import type { SealingPolicy } from './sealing-policy.js';

/** The current search: cancelled when its template goes stale. */
interface SearchState {
  readonly parentHash: Uint8Array;
  empty: boolean;
  cancelled: boolean;
}

const ERROR_BACKOFF_MS = 1000;

export class ContinuousPolicy implements SealingPolicy {
  private running = false;
  /** Bumped by every start/stop, so a loop left over from an earlier start ends. */
  private generation = 0;
  private search: SearchState | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly core: BlockProduction) {}

  start(): void {
    this.running = true;
    this.loop = this.run(++this.generation);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.generation++;
    if (this.search !== undefined) this.search.cancelled = true;
    await Promise.allSettled([this.loop]);
    this.loop = undefined;
  }

  onNewHead(head: Block): void {
    if (this.search !== undefined && !equalsBytes(this.search.parentHash, head.hash())) this.search.cancelled = true;
  }

  /** A template without transactions is worth less than one with the new work: start over. */
  onExecutableTx(): void {
    if (this.running && this.search?.empty === true) this.search.cancelled = true;
  }

  templatesChanged(): void {
    if (this.search !== undefined) this.search.cancelled = true;
  }

  private async run(generation: number): Promise<void> {
    const live = () => this.running && this.generation === generation;
    while (live()) {
      try {
        await this.mineOnHead(live);
      } catch (err) {
        this.core.report(err);
        await sleep(ERROR_BACKOFF_MS);
      }
    }
  }

  /** One template on the current head, searched until sealed or stale. */
  private async mineOnHead(live: () => boolean): Promise<void> {
    const { core } = this;
    const state: SearchState = { parentHash: core.chain.getHead().hash(), empty: true, cancelled: false };
    this.search = state;
    try {
      const started = performance.now();
      const assembled = await core.assemble(state.parentHash);
      state.empty = assembled.transactions.length === 0;
      const found = await core.searchSeal(assembled.template.header, () => state.cancelled || !live());
      if (found === undefined) return;
      const sealMs = performance.now() - started;
      await core.exclusive(async () => {
        // Another path (a peer's block, mineBlocks, submitWork) may have moved the head while we searched.
        if (!equalsBytes(core.chain.getHead().hash(), state.parentHash)) return;
        const block = assembled.seal(found.nonce, found.mixDigest, true);
        await core.settle(assembled, block, await core.chain.importBlock(block), true, sealMs);
      });
    } finally {
      if (this.search === state) this.search = undefined;
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
