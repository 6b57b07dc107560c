/**
 * `mineBlocks(n)` (qa_mineBlocks, test_mineBlocks), whether or not a policy runs. Empty blocks on the head (nothing
 * pending, or `withTransactions: false`) go in bulk through `Blockchain.extendHead`: the same assembly, seal and
 * header checks, stored a chunk of blocks per database batch.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BlockProduction } from './production.js';
import type { MineBlocksOptions, MinedBlock } from './types.js';

/**
 * Bulk blocks made per turn of the event loop (and of the production lock), each turn one database batch: other
 * requests wait at most one turn. A 500-block turn kept eth_chainId waiting ~0.8 s (up to 4 s) on a loaded 2-core
 * machine; 100 blocks cost the bulk run a few per cent of its rate.
 */
export const BLOCKS_PER_TURN = 100;

/**
 * Seals `count` blocks now, one after another, from the pool's executable transactions. Between blocks (and bulk
 * chunks) it gives the event loop a turn, so a long run does not keep every other request waiting: the blocks'
 * database writes may all be buffered (db/write-behind.ts), and a loop of resolved promises never yields by itself.
 */
export async function mineBlocks(
  core: BlockProduction,
  count: number,
  options: MineBlocksOptions = {},
): Promise<MinedBlock[]> {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`the number of blocks must be a non-negative integer, got ${count}`);
  const withTransactions = options.withTransactions ?? true;
  const collect = options.collect ?? true;
  const out: MinedBlock[] = [];
  let done = 0;
  let parentHash = options.parentHash;
  while (done < count && options.cancelled?.() !== true) {
    if (done > 0) await nextTurn();
    // Blocks on the head with nothing to include go in bulk (one database batch per chunk, see Blockchain.extendHead).
    if (parentHash === undefined && core.chain.extendHead !== undefined) {
      // One chunk per turn of the lock: between chunks other requests run and other blocks may be sealed.
      const chunk = Math.min(count - done, Math.max(1, options.chunkSize ?? BLOCKS_PER_TURN));
      const made = await core.exclusive(() =>
        core.produceEmpty(chunk, withTransactions, options, collect ? out : undefined),
      );
      done += made;
      if (made > 0) continue;
    }
    const mined = await core.exclusive(() => core.produce(parentHash, withTransactions, options.timestamp?.()));
    done++;
    if (collect) out.push(mined);
    if (parentHash !== undefined) parentHash = mined.block.hash();
  }
  return out;
}
