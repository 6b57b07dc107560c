/**
 * `svc-node export`: canonical blocks `first`..`last` as an RLP block stream (gzip'd for a `.gz` name), the format
 * `svc-node import` and geth's `import` read back.
 */
import type { Blockchain } from '../blockchain/blockchain.js';
import { ProgressLog, type ProgressLogger } from '../base/progress-log.js';
import { RlpBlockWriter } from './rlp-blocks.js';

export interface HistoryExportOptions {
  readonly chain: Blockchain;
  readonly path: string;
  /** Default 0. */
  readonly first?: bigint;
  /** Default: the head. */
  readonly last?: bigint;
  readonly log: ProgressLogger;
  readonly signal?: AbortSignal;
  /** ms between progress lines (default ProgressLog's 5 s). */
  readonly progressIntervalMs?: number;
}

export interface HistoryExportOutcome {
  readonly first: bigint;
  readonly last: bigint;
  readonly exported: number;
  readonly stopped: boolean;
}

export class HistoryExportError extends Error {}

export async function exportHistory(opts: HistoryExportOptions): Promise<HistoryExportOutcome> {
  const head = opts.chain.getHead().header.number;
  const first = opts.first ?? 0n;
  const last = opts.last ?? head;
  if (first < 0n || last < first) throw new HistoryExportError(`export range ${first}..${last} is empty`);
  if (last > head) throw new HistoryExportError(`block ${last} is past the head (${head})`);
  const writer = await RlpBlockWriter.create(opts.path);
  const progress = new ProgressLog({
    log: opts.log,
    message: 'export progress',
    total: Number(last - first + 1n),
    unit: 'blocks',
    ...(opts.progressIntervalMs !== undefined ? { intervalMs: opts.progressIntervalMs } : {}),
  }).start();
  let exported = 0;
  let stopped = false;
  try {
    for (let n = first; n <= last; n++) {
      if (opts.signal?.aborted) {
        stopped = true;
        break;
      }
      const block = await opts.chain.getBlock(n);
      if (block === undefined) throw new HistoryExportError(`block ${n} is not stored`);
      await writer.write(block.serialize());
      progress.update(++exported);
    }
  } finally {
    progress.stop();
    await writer.close();
  }
  return { first, last: first + BigInt(exported) - 1n, exported, stopped };
}
