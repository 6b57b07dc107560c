/**
 * Ethash verification cache: a sequential keccak-512 chain from the seed followed by CACHE_ROUNDS rounds of
 * Sergio Demian Lerner's RandMemoHash. Pure and synchronous (needs loadKeccak()); the cache store runs it in
 * a worker thread so the event loop never waits on it.
 */
import { CACHE_ROUNDS, HASH_BYTES, HASH_WORDS } from './epoch.js';
import { keccak512Into } from '../base/keccak.js';

if (new Uint8Array(new Uint32Array([1]).buffer)[0] !== 1) {
  // Ethash is specified over little-endian words and this code reads them through Uint32Array views.
  throw new Error('Ethash needs a little-endian host');
}

/** Items between two `onProgress` calls: often enough for steady progress lines, rare enough to cost nothing. */
const PROGRESS_EVERY = 8192;

/**
 * Builds the cache of `size` bytes (a multiple of 64) for `seed` (32 bytes), as little-endian words.
 * `onProgress(done, total)` is called every few thousand items, in units of one item hashed once
 * (total = items × (1 + CACHE_ROUNDS)).
 */
export function buildCache(
  size: number,
  seed: Uint8Array,
  onProgress?: (done: number, total: number) => void,
): Uint32Array {
  if (size % HASH_BYTES !== 0) throw new RangeError(`cache size ${size} is not a multiple of ${HASH_BYTES}`);
  const items = size / HASH_BYTES;
  const bytes = new Uint8Array(size);
  const words = new Uint32Array(bytes.buffer);
  const scratchBytes = new Uint8Array(HASH_BYTES);
  const scratch = new Uint32Array(scratchBytes.buffer);

  const total = items * (1 + CACHE_ROUNDS);
  keccak512Into(seed, bytes, 0);
  for (let i = 1; i < items; i++) {
    if (onProgress !== undefined && i % PROGRESS_EVERY === 0) onProgress(i, total);
    const prev = (i - 1) * HASH_WORDS;
    for (let k = 0; k < HASH_WORDS; k++) scratch[k] = words[prev + k];
    keccak512Into(scratchBytes, bytes, i * HASH_BYTES);
  }

  for (let round = 0; round < CACHE_ROUNDS; round++) {
    for (let i = 0; i < items; i++) {
      if (onProgress !== undefined && i % PROGRESS_EVERY === 0) onProgress((round + 1) * items + i, total);
      const self = i * HASH_WORDS;
      const prev = ((i + items - 1) % items) * HASH_WORDS;
      const other = (words[self] % items) * HASH_WORDS;
      for (let k = 0; k < HASH_WORDS; k++) scratch[k] = words[prev + k] ^ words[other + k];
      keccak512Into(scratchBytes, bytes, self * 4);
    }
  }
  return words;
}
