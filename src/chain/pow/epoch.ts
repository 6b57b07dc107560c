/**
 * Ethash/Etchash constants and epoch arithmetic: which epoch a block is in, the seed hash of an epoch and
 * the cache and dataset sizes.
 *
 * Etchash (ECIP-1099) doubles the epoch length to 60,000 from its activation block. Sizes follow the epoch
 * *number* (so mainnet drops from epoch 390 to 195 and gets the smaller epoch-195 cache), while the seed
 * follows the first block of the epoch counted in 30,000-block steps, i.e. 2·epoch iterations after the
 * fork, so a post-fork seed never equals the seed of the pre-fork epoch with the same number.
 */
import { keccak256Into } from '../base/keccak.js';

export const WORD_BYTES = 4;
export const HASH_BYTES = 64;
export const HASH_WORDS = HASH_BYTES / WORD_BYTES;
export const MIX_BYTES = 128;
export const MIX_WORDS = MIX_BYTES / WORD_BYTES;
export const DATASET_PARENTS = 256;
export const CACHE_ROUNDS = 3;
export const ACCESSES = 64;
export const CACHE_BYTES_INIT = 2 ** 24;
export const CACHE_BYTES_GROWTH = 2 ** 17;
export const DATASET_BYTES_INIT = 2 ** 30;
export const DATASET_BYTES_GROWTH = 2 ** 23;
export const EPOCH_LENGTH_DEFAULT = 30_000;
export const EPOCH_LENGTH_ECIP1099 = 60_000;

/** The PoW parameters of a network: only the Etchash activation block varies between ETC networks. */
export interface PowParams {
  /** First block with 60,000-block epochs (ECIP-1099); undefined = plain Ethash forever. */
  readonly ecip1099Block?: bigint | number;
}

/** Where a block's seal is computed: the epoch, its length and the per-epoch material derived from them. */
export interface EpochInfo {
  readonly epoch: number;
  readonly epochLength: number;
}

function toBlockNumber(block: bigint | number): number {
  const n = Number(block);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`invalid block number ${String(block)}`);
  return n;
}

export function epochLengthAt(block: bigint | number, params: PowParams): number {
  const fork = params.ecip1099Block;
  return fork !== undefined && toBlockNumber(block) >= toBlockNumber(fork)
    ? EPOCH_LENGTH_ECIP1099
    : EPOCH_LENGTH_DEFAULT;
}

export function epochAt(block: bigint | number, params: PowParams): EpochInfo {
  const epochLength = epochLengthAt(block, params);
  return { epoch: Math.floor(toBlockNumber(block) / epochLength), epochLength };
}

/** How many times keccak256 is applied to 32 zero bytes to get the seed of `epoch`. */
export function seedIterations(epoch: number, epochLength: number): number {
  return Math.floor((epoch * epochLength + 1) / EPOCH_LENGTH_DEFAULT);
}

const seedMemo = new Map<number, Uint8Array>();

/** The 32-byte seed hash; needs loadKeccak(). Memoised by iteration count (seeds are small and reused). */
export function seedHash(epoch: number, epochLength: number = EPOCH_LENGTH_DEFAULT): Uint8Array {
  const iterations = seedIterations(epoch, epochLength);
  let seed = seedMemo.get(iterations);
  if (seed === undefined) {
    seed = new Uint8Array(32);
    for (let i = 0; i < iterations; i++) keccak256Into(seed, seed);
    seedMemo.set(iterations, seed);
  }
  return seed.slice();
}

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

/** Bytes of the verification cache of `epoch`: the largest size below the linear bound with a prime item count. */
export function cacheSize(epoch: number): number {
  let size = CACHE_BYTES_INIT + CACHE_BYTES_GROWTH * epoch - HASH_BYTES;
  while (!isPrime(size / HASH_BYTES)) size -= 2 * HASH_BYTES;
  return size;
}

/** Bytes of the full dataset (DAG) of `epoch`; light verification only needs its page count. */
export function datasetSize(epoch: number): number {
  let size = DATASET_BYTES_INIT + DATASET_BYTES_GROWTH * epoch - MIX_BYTES;
  while (!isPrime(size / MIX_BYTES)) size -= 2 * MIX_BYTES;
  return size;
}
