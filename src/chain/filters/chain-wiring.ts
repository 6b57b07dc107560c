/**
 * Connects a FilterManager to the chain engine's head events. Pool arrivals are fed by the caller
 * (`manager.onPendingTransaction`), which decides what counts as pending (src/chain/engine-logs.ts).
 */
import type { Block } from '@ethereumjs/block';
import type { Blockchain } from '../blockchain/blockchain.js';
import type { ReorgEvent } from '../view/chain-events.js';
import { chainLogSource } from './chain-source.js';
import type { LogQueries } from '../logs/query.js';
import { FilterManager, type FilterManagerOptions } from './filter-manager.js';

export type ChainFilterOptions = Omit<
  FilterManagerOptions<Block>,
  'source' | 'queries' | 'blockByHash' | 'initialHead'
>;

export interface ChainFilters {
  readonly manager: FilterManager<Block>;
  /** Removes the event listeners and closes the manager. */
  detach(): void;
}

/** A FilterManager fed by `chain` (newHead, reorg). */
export function attachFilters(chain: Blockchain, queries: LogQueries, opts: ChainFilterOptions = {}): ChainFilters {
  const manager = new FilterManager<Block>({
    ...opts,
    source: chainLogSource(chain),
    queries,
    blockByHash: (hash) => chain.getBlock(hash),
    initialHead: chain.getHead(),
  });
  const onHead = (block: Block) => manager.onNewHead(block);
  const onReorg = (event: ReorgEvent) => manager.onReorg(event);
  chain.on('newHead', onHead);
  chain.on('reorg', onReorg);
  return {
    manager,
    detach() {
      chain.off('newHead', onHead);
      chain.off('reorg', onReorg);
      manager.close();
    },
  };
}
