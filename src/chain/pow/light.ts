/**
 * The fast path every verifier and miner goes through: light hashimoto in the native add-on when it builds and loads
 * here (ethash-native.ts), else in WebAssembly when that runs (ethash-wasm.ts), else the TypeScript reference
 * (hashimoto.ts); cache builds in WebAssembly or the reference (cache.ts). Callers keep passing the cache as a
 * Uint32Array; the native or WebAssembly handle for it is found by identity. A cache that already lives in a cache
 * memory (built in WebAssembly, or shared with the seal workers) is bound to it and hashed in place; any other cache
 * is copied into a memory of its own on first use (once per epoch and thread).
 */
import { buildCache } from './cache.js';
import { ethashNative, NATIVE_MAX_LANES, type NativeCache, type NativeEthash } from './ethash-native.js';
import { cacheMemory, cacheView, ethashWasm, WASM_BATCH_LANES, WASM_SLOTS, WasmEthash } from './ethash-wasm.js';
import { MIX_BYTES } from './epoch.js';
import { hashimotoLightInto, splitNonce, type LightHash } from './hashimoto.js';

const hashers = new WeakMap<Uint32Array, WasmEthash>();
/** Native copies by cache (null: the add-on refused it), one bind per cache and thread. */
const natives = new WeakMap<Uint32Array, NativeCache | null>();
/** Caches a memory could not be allocated for: not tried again. */
const unplaced = new WeakSet<Uint32Array>();
/** This thread's scratch slot in shared cache memories (0 = main thread; seal workers take their own). */
let slot = 0;
/**
 * Hashes per batch (bench/ethash.ts compares 1, 2, 4, 8 and 16). Natively 16, the default, keeps the most reads in
 * flight (0.25 against 0.34 ms of CPU a hash at 8 on a loaded machine, though 16 hashes' items no longer fit the
 * registers); WebAssembly caps it at 8, its best. SVC_ETHASH_BATCH=1..16 sets it for a process and its seal workers
 * (A/B runs of a whole import).
 */
let batchLanes = lanesFromEnv(process.env.SVC_ETHASH_BATCH);

function lanesFromEnv(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= NATIVE_MAX_LANES ? n : NATIVE_MAX_LANES;
}

/** How many hashes `lightHashManyInto` runs at once (1..16; at most 8 in WebAssembly). */
export function setBatchLanes(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > NATIVE_MAX_LANES)
    throw new RangeError(`batch of ${n} out of 1..${NATIVE_MAX_LANES}`);
  batchLanes = n;
}

export function batchLanesNow(): number {
  return batchLanes;
}

export function setThreadSlot(value: number): void {
  if (!Number.isInteger(value) || value < 0 || value >= WASM_SLOTS)
    throw new RangeError(`scratch slot ${value} out of 0..${WASM_SLOTS - 1}`);
  slot = value;
}

/**
 * The cache's words as a view into `memory` (a cache memory holding it), hashed there without a copy; when the
 * WebAssembly path is off the same view is read by the TypeScript reference.
 */
export function bindCacheMemory(memory: WebAssembly.Memory, cacheBytes: number): Uint32Array {
  const cache = cacheView(memory, cacheBytes);
  const module = ethashWasm();
  if (module !== undefined) hashers.set(cache, new WasmEthash(module, memory, cacheBytes, slot));
  return cache;
}

/** The cache memory a cache was bound to or copied into, if the WebAssembly path runs. */
export function memoryOf(cache: Uint32Array): WebAssembly.Memory | undefined {
  return hasherFor(cache)?.memory;
}

/**
 * The cache moved into a cache memory of its own and bound to it (one copy now, so callers can drop the original and
 * keep one copy per epoch); the cache itself when the WebAssembly path is off.
 */
export function intoCacheMemory(cache: Uint32Array): Uint32Array {
  const memory = memoryOf(cache);
  if (memory === undefined) return cache;
  const bound = cacheView(memory, cache.byteLength);
  hashers.set(bound, hashers.get(cache) as WasmEthash);
  return bound;
}

/** The add-on and the cache's copy in it, when the add-on runs here. */
function nativeFor(cache: Uint32Array): { native: NativeEthash; bound: NativeCache } | undefined {
  const native = ethashNative();
  if (native === undefined) return undefined;
  let bound = natives.get(cache);
  if (bound === undefined) {
    try {
      bound = native.bind(cache);
    } catch {
      bound = null; // no memory for the copy: WebAssembly or the reference hashes this cache
    }
    natives.set(cache, bound);
  }
  return bound === null ? undefined : { native, bound };
}

/** Hashes k = 0..n-1 natively (pow hash, nonce his[k]:los[k]) into 32-byte outputs at 32·k; false if not native. */
function nativeHashMany(
  cache: Uint32Array,
  fullSize: number,
  powHashes: readonly Uint8Array[],
  his: ArrayLike<number>,
  los: ArrayLike<number>,
  mixDigestsOut: Uint8Array,
  resultsOut: Uint8Array,
): boolean {
  const found = nativeFor(cache);
  if (found === undefined) return false;
  const count = powHashes.length;
  const input = new Uint8Array(40 * count);
  const words = new DataView(input.buffer);
  const output = new Uint8Array(64 * count);
  for (let k = 0; k < count; k++) {
    input.set(powHashes[k], 40 * k);
    words.setUint32(40 * k + 32, los[k], true);
    words.setUint32(40 * k + 36, his[k], true);
  }
  found.native.hash(found.bound, Math.floor(fullSize / MIX_BYTES), batchLanes, input, output);
  for (let k = 0; k < count; k++) {
    mixDigestsOut.set(output.subarray(64 * k, 64 * k + 32), 32 * k);
    resultsOut.set(output.subarray(64 * k + 32, 64 * k + 64), 32 * k);
  }
  return true;
}

function hasherFor(cache: Uint32Array): WasmEthash | undefined {
  const module = ethashWasm();
  if (module === undefined) return undefined;
  let hasher = hashers.get(cache);
  if (hasher === undefined) {
    if (unplaced.has(cache)) return undefined;
    try {
      const memory = cacheMemory(cache.byteLength);
      cacheView(memory, cache.byteLength).set(cache);
      hasher = new WasmEthash(module, memory, cache.byteLength, slot);
    } catch {
      // No room for another memory (address space, or memory, exhausted): this cache stays on the reference path.
      unplaced.add(cache);
      return undefined;
    }
    hashers.set(cache, hasher);
  }
  return hasher;
}

/** hashimotoLightInto's contract, natively or in WebAssembly when either runs. */
export function lightHashInto(
  cache: Uint32Array,
  fullSize: number,
  powHash: Uint8Array,
  nonceHi: number,
  nonceLo: number,
  mixDigestOut: Uint8Array,
  resultOut: Uint8Array,
): void {
  if (powHash.length !== 32) throw new RangeError(`pow hash must be 32 bytes, got ${powHash.length}`);
  if (nativeHashMany(cache, fullSize, [powHash], [nonceHi], [nonceLo], mixDigestOut, resultOut)) return;
  const hasher = hasherFor(cache);
  if (hasher !== undefined) hasher.hashimotoInto(fullSize, powHash, nonceHi, nonceLo, mixDigestOut, resultOut);
  else hashimotoLightInto(cache, fullSize, powHash, nonceHi, nonceLo, mixDigestOut, resultOut);
}

/**
 * Many light hashes over one cache: hash k of pow hash powHashes[k] and nonce his[k]:los[k] leaves its mix digest at
 * 32·k in mixDigestsOut and its result at 32·k in resultsOut. Natively or in WebAssembly they run in batches whose
 * cache reads are interleaved (one hash alone waits on memory for each of its reads); each hash's output is the one
 * lightHashInto gives it alone.
 */
export function lightHashManyInto(
  cache: Uint32Array,
  fullSize: number,
  powHashes: readonly Uint8Array[],
  his: ArrayLike<number>,
  los: ArrayLike<number>,
  mixDigestsOut: Uint8Array,
  resultsOut: Uint8Array,
): void {
  const count = powHashes.length;
  for (const powHash of powHashes)
    if (powHash.length !== 32) throw new RangeError(`pow hash must be 32 bytes, got ${powHash.length}`);
  if (nativeHashMany(cache, fullSize, powHashes, his, los, mixDigestsOut, resultsOut)) return;
  const hasher = hasherFor(cache);
  if (hasher === undefined) {
    for (let k = 0; k < count; k++) {
      hashimotoLightInto(
        cache,
        fullSize,
        powHashes[k],
        his[k],
        los[k],
        mixDigestsOut.subarray(32 * k, 32 * k + 32),
        resultsOut.subarray(32 * k, 32 * k + 32),
      );
    }
    return;
  }
  const lanes = Math.min(batchLanes, WASM_BATCH_LANES);
  for (let from = 0; from < count; from += lanes) {
    const n = Math.min(lanes, count - from);
    const to = from + n;
    hasher.hashimotoBatchInto(
      fullSize,
      n,
      powHashes.slice(from, to),
      Array.prototype.slice.call(his, from, to) as number[],
      Array.prototype.slice.call(los, from, to) as number[],
      mixDigestsOut.subarray(32 * from, 32 * to),
      resultsOut.subarray(32 * from, 32 * to),
    );
  }
}

/** hashimotoLight's contract, natively or in WebAssembly when either runs. */
export function lightHash(
  cache: Uint32Array,
  fullSize: number,
  powHash: Uint8Array,
  nonce: Uint8Array | bigint,
): LightHash {
  if (powHash.length !== 32) throw new RangeError(`pow hash must be 32 bytes, got ${powHash.length}`);
  const [hi, lo] = splitNonce(nonce);
  const mixDigest = new Uint8Array(32);
  const result = new Uint8Array(32);
  lightHashInto(cache, fullSize, powHash, hi, lo, mixDigest, result);
  return { mixDigest, result };
}

/**
 * buildCache's contract; in WebAssembly the cache is built inside a shared cache memory, to which the returned
 * view stays bound (hashing it needs no copy, and the memory can be handed to other threads: see `memoryOf`).
 */
export function buildCacheFast(
  size: number,
  seed: Uint8Array,
  onProgress?: (done: number, total: number) => void,
): Uint32Array {
  const module = ethashWasm();
  if (module === undefined) return buildCache(size, seed, onProgress);
  let hasher: WasmEthash;
  try {
    hasher = new WasmEthash(module, cacheMemory(size), size, slot);
  } catch {
    return buildCache(size, seed, onProgress); // no room for the memory: see hasherFor
  }
  const cache = hasher.buildCache(seed, onProgress);
  hashers.set(cache, hasher);
  return cache;
}
