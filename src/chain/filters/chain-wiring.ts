/** Connects a FilterManager to the chain engine's head events and the transaction pool's arrivals. */
import type { Block } from '@ethereumjs/block';
import type { Blockchain, ReorgEvent } from '../blockchain.js';
import { chainLogSource } from '../logs/chain-source.js';
import type { LogQueries } from '../logs/query.js';
import { FilterManager, type FilterManagerOptions } from './filter-manager.js';

/** The pool's announcement of a transaction entering it; payloads only need a hash. */
export interface PendingTxEvents {
  on(event: 'tx:added', listener: (tx: { hash(): Uint8Array }) => void): unknown;
  off(event: 'tx:added', listener: (tx: { hash(): Uint8Array }) => void): unknown;
}

export type ChainFilterOptions = Omit<FilterManagerOptions<Block>, 'source' | 'queries' | 'blockByHash' | 'initialHead'>;

export interface ChainFilters {
  readonly manager: FilterManager<Block>;
  /** Removes the event listeners and closes the manager. */
  detach(): void;
}

/** A FilterManager fed by `chain` (newHead, reorg) and, if given, `pool` (tx:added). */
export function attachFilters(chain: Blockchain, queries: LogQueries, pool?: PendingTxEvents, opts: ChainFilterOptions = {}): ChainFilters {
  const manager = new FilterManager<Block>({
    ...opts,
    source: chainLogSource(chain),
    queries,
    blockByHash: (hash) => chain.getBlock(hash),
    initialHead: chain.getHead(),
  });
  const onHead = (block: Block) => manager.onNewHead(block);
  const onReorg = (event: ReorgEvent) => manager.onReorg(event);
  const onTx = (tx: { hash(): Uint8Array }) => manager.onPendingTransaction(tx.hash());
  chain.on('newHead', onHead);
  chain.on('reorg', onReorg);
  pool?.on('tx:added', onTx);
  return {
    manager,
    detach() {
      chain.off('newHead', onHead);
      chain.off('reorg', onReorg);
      pool?.off('tx:added', onTx);
      manager.close();
    },
  };
}
