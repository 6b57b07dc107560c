/**
 * anvil_rollback and anvil_reorg: the top `depth` blocks leave the chain and, for a reorg, as many new blocks take
 * their place, each holding only the replacement transactions given for it. As Anvil 1.7.1 does, the dropped blocks'
 * transactions are gone afterwards (no receipt, not pooled again) unless a replacement includes them, and the
 * block clock goes back to the common ancestor's time. The chain's `reorg` event (filters: logs with removed: true;
 * the node's `chain reorg` line) and a `newHead` per new block follow from the rewind and the sealing.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Block } from '@ethereumjs/block';
import type { ChainEngine } from '../engine/engine.js';
import { decodePoolTransaction } from '../txpool/index.js';
import type { DevClock } from './dev-clock.js';

/** A replacement transaction: signed bytes as eth_sendRawTransaction takes them, or one already built and signed. */
export type ReplacementTx = Uint8Array | TypedTransaction;

export class ReorgDepthError extends RangeError {}

/** The common ancestor's number; a depth past the genesis is refused with the head's height. */
export function ancestorOf(engine: ChainEngine, depth: bigint, what: 'Reorg' | 'Rollback'): bigint {
  const height = engine.chain.getHead().header.number;
  if (depth > height)
    throw new ReorgDepthError(
      `${what} depth must not exceed current chain height: current height ${height}, depth ${depth}`,
    );
  return height - depth;
}

/**
 * Rewinds to block `ancestor` and seals one block per entry of `blocks` on it. Call with block production held
 * (DevControls' paused miner): nothing else may seal between the rewind and the new branch.
 */
export async function replaceTop(
  engine: ChainEngine,
  clock: DevClock,
  ancestor: bigint,
  blocks: readonly (readonly ReplacementTx[])[],
): Promise<Block[]> {
  const { chain, pool, miner } = engine;
  const common = chain.txCommonAt(ancestor + 1n);
  const decoded = blocks.map((txs) =>
    txs.map((tx) =>
      tx instanceof Uint8Array
        ? decodePoolTransaction(tx, { chainId: chain.network.chainId, common, allowUnprotected: true })
        : tx,
    ),
  );
  const pooledBefore = new Set(pool.all().map((p) => p.hashHex));
  const target = await chain.rewindTo(ancestor);
  // The pool takes the dropped blocks' transactions back, as after any reorg; Anvil's does not, and neither do we.
  await engine.poolInStep();
  for (const p of pool.all())
    if (!pooledBefore.has(p.hashHex)) pool.remove(p.hash, 'removed', 'removed: its block was dropped by a reorg');
  clock.resetTo(target.header.timestamp);
  const sealed: Block[] = [];
  for (const txs of decoded) sealed.push((await miner.sealWith(txs, clock.take())).block);
  return sealed;
}
