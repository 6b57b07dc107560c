/**
 * What the miner needs from the engine, the transaction pool and the PoW module. Each seam is the smallest slice
 * of the real class, so the node wires `Blockchain`, `TxPool` and `Ethash` directly and tests may wrap them.
 */
import type { Blockchain } from '../blockchain/blockchain.js';
import type { Ethash } from '../pow/ethash.js';
import type { TxPool } from '../txpool/txpool.js';

/** Assembles and imports blocks, and says when the head moves (a block from elsewhere, a reorg). */
export type MinerChain = Pick<Blockchain, 'getHead' | 'assemble' | 'importBlock' | 'on' | 'off'> &
  /**
   * Bulk empty blocks (`mineBlocks`; without it they go one import at a time), and the seal checker production
   * waits for before each block (at most `exec.seal-check-lag` blocks unverified; it refuses after a mismatch).
   */
  Partial<Pick<Blockchain, 'extendHead' | 'sealChecks'>>;

/**
 * Candidate transactions (executable, in the pool's price-then-nonce order), the updates that take mined
 * transactions out, and the events that tell the miner new work arrived.
 */
export type MinerPool = Pick<
  TxPool,
  | 'executable'
  | 'pendingCount'
  | 'includableCount'
  | 'noteWaiting'
  | 'whenAddsSettled'
  | 'onBlockAdded'
  | 'onReorg'
  | 'remove'
  | 'on'
  | 'off'
>;

/** Nonce search, seal checks and the work package of an epoch. */
export type MinerPow = Pick<Ethash, 'mine' | 'verifySeal' | 'workPackage'>;
