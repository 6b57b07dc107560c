/**
 * Runs a snap sync in the background until it hands over, retrying after a failure (its record keeps what was
 * done). Full sync must not start meanwhile: the stored header chain has no state below it to import on.
 */
import type { ChainPort } from '../../chain-port.js';
import type { Synchronizer } from '../../sync.js';
import { SnapSync, type SnapSyncOptions } from './snap-sync.js';

const RETRY_MS = 3_000;

export interface SnapRun {
  close(): Promise<void>;
}

export function runSnapSync(
  options: SnapSyncOptions & {
    readonly log: SnapSyncOptions['log'] & { warn(msg: string, f?: Record<string, unknown>): void };
    /** The sync handed over, or found nothing to do: full sync takes over. */
    readonly onDone: () => void;
  },
): SnapRun {
  let closed = false;
  let current: SnapSync | undefined;
  const loop = async (): Promise<void> => {
    while (!closed) {
      current = new SnapSync(options);
      try {
        const handedOver = await current.run();
        if (!closed && !handedOver) options.log.info('snap sync not needed: the chain is too short for a pivot');
        break;
      } catch (err) {
        if (closed) break;
        options.log.warn('snap sync stopped, retrying', { error: (err as Error).message });
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
    if (!closed) options.onDone();
  };
  const running = loop();
  return {
    async close() {
      closed = true;
      current?.close();
      await running.catch(() => undefined);
    },
  };
}

/**
 * Starts a snap sync when the node is empty (head at genesis) or holds an unfinished one; undefined otherwise.
 * Full sync (`sync`) is held meanwhile, shows the snap progress as its own, and resumes at the handover.
 */
export async function startSnapSyncIfEmpty(
  options: Omit<SnapSyncOptions, 'state' | 'onStatus'> & {
    readonly chain: ChainPort;
    readonly sync: Synchronizer;
    readonly log: SnapSyncOptions['log'] & { warn(msg: string, f?: Record<string, unknown>): void };
    readonly onDone: () => void;
  },
): Promise<SnapRun | undefined> {
  const { chain, sync } = options;
  const state = chain.snapState;
  if (state === undefined) return undefined;
  const unfinished = (await state.readProgress()) !== undefined;
  if (!unfinished && chain.getHead().header.number !== 0n) return undefined;
  sync.hold(true);
  return runSnapSync({
    ...options,
    state,
    onStatus: (status) =>
      sync.showProgress(
        status === null
          ? null
          : {
              startingBlock: 0n,
              currentBlock: chain.getHead().header.number,
              highestBlock: status.pivot,
              snap: status,
            },
      ),
    onDone: () => {
      options.onDone();
      sync.hold(false);
      sync.trigger();
    },
  });
}
