/**
 * The WebAssembly Ethash (asm/ethash.ts, compiled into ethash-wasm-bytes.ts): light hashimoto and cache generation
 * over an epoch cache held in a shared WebAssembly.Memory. The TypeScript in hashimoto.ts and cache.ts stays the
 * reference and the fallback: `ethashWasm()` is undefined when WebAssembly (with SIMD and shared memory) cannot be
 * instantiated here, or when SVC_ETHASH_WASM=0 or `setEthashWasmEnabled(false)` turns it off.
 *
 * A cache memory is shared, so one copy of an epoch's cache serves every thread: each thread instantiates the module
 * over it and hashes in its own scratch slot (main thread 0, seal worker i slot i + 1).
 */
import { ETHASH_WASM_BASE64 } from './ethash-wasm-bytes.js';
import { CACHE_ROUNDS, HASH_BYTES, MIX_BYTES } from './epoch.js';

/** Where the cache starts in the memory; below it, the threads' scratch slots (see asm/ethash.ts). */
const SLOT_BYTES = 8192;
const CACHE_OFFSET = 64 * SLOT_BYTES;
/** A slot's lanes: one hash of a batch each (asm/ethash.ts's hashimotoBatch); a single hash uses lane 0. */
const LANE_BYTES = 1024;
export const WASM_BATCH_LANES = SLOT_BYTES / LANE_BYTES;
export const WASM_SLOTS = CACHE_OFFSET / SLOT_BYTES;
const PAGE_BYTES = 65536;
// Offsets in a slot, as in asm/ethash.ts.
const CMIX = 320;
const HDR = 384;
const RES = 704;
const NONCE = 736;
/** Items between two progress reports of a cache build (as cache.ts). */
const PROGRESS_EVERY = 8192;

interface EthashExports {
  hashimoto(slot: number, items: number, pages: number, nonceLo: number, nonceHi: number): void;
  hashimotoBatch(slot: number, n: number, items: number, pages: number): void;
  cacheInit(slot: number, from: number, to: number): void;
  cacheRound(slot: number, items: number, from: number, to: number): void;
}

let compiled: WebAssembly.Module | null | undefined;
let enabled = process.env.SVC_ETHASH_WASM !== '0';

/** Turns the WebAssembly path on or off for this thread (tests compare it with the TypeScript reference). */
export function setEthashWasmEnabled(on: boolean): void {
  enabled = on;
}

/** The compiled module, or undefined when the WebAssembly path is off or cannot run here. */
export function ethashWasm(): WebAssembly.Module | undefined {
  if (!enabled) return undefined;
  if (compiled === undefined) compiled = compileEthashWasm(Buffer.from(ETHASH_WASM_BASE64, 'base64')) ?? null;
  return compiled ?? undefined;
}

/** Compiles and trial-instantiates the module; undefined if this engine cannot run it (the TypeScript path runs). */
export function compileEthashWasm(bytes: Uint8Array): WebAssembly.Module | undefined {
  try {
    const module = new WebAssembly.Module(bytes);
    // Proves the engine accepts a shared memory import (and SIMD), not only that the bytes parse.
    new WebAssembly.Instance(module, { env: { memory: cacheMemory(0) } });
    return module;
  } catch {
    return undefined;
  }
}

/** A shared memory sized for a cache of `cacheBytes` (plus the scratch slots below it). */
export function cacheMemory(cacheBytes: number): WebAssembly.Memory {
  const pages = Math.ceil((CACHE_OFFSET + cacheBytes) / PAGE_BYTES);
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
}

/** The cache's words inside a cache memory. */
export function cacheView(memory: WebAssembly.Memory, cacheBytes: number): Uint32Array {
  return new Uint32Array(memory.buffer, CACHE_OFFSET, cacheBytes / 4);
}

/** One thread's handle on a cache memory: the module instantiated over it, hashing in scratch slot `slot`. */
export class WasmEthash {
  private readonly exports: EthashExports;
  private readonly bytes: Uint8Array;
  private readonly base: number;

  constructor(
    module: WebAssembly.Module,
    readonly memory: WebAssembly.Memory,
    readonly cacheBytes: number,
    slot = 0,
  ) {
    if (slot < 0 || slot >= WASM_SLOTS) throw new RangeError(`scratch slot ${slot} out of 0..${WASM_SLOTS - 1}`);
    if (memory.buffer.byteLength < CACHE_OFFSET + cacheBytes) throw new RangeError('memory too small for the cache');
    this.exports = new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as EthashExports;
    this.bytes = new Uint8Array(memory.buffer);
    this.base = slot * SLOT_BYTES;
  }

  /** Same contract as hashimoto.ts's hashimotoLightInto over this memory's cache. */
  hashimotoInto(
    fullSize: number,
    powHash: Uint8Array,
    nonceHi: number,
    nonceLo: number,
    mixDigestOut: Uint8Array,
    resultOut: Uint8Array,
  ): void {
    const b = this.base;
    this.bytes.set(powHash, b + HDR);
    this.exports.hashimoto(b, this.cacheBytes / HASH_BYTES, Math.floor(fullSize / MIX_BYTES), nonceLo, nonceHi);
    mixDigestOut.set(this.bytes.subarray(b + CMIX, b + CMIX + 32));
    resultOut.set(this.bytes.subarray(b + RES, b + RES + 32));
  }

  /**
   * Hashes k = 0..n-1 (n ≤ WASM_BATCH_LANES) at once, their parent reads interleaved (see asm/ethash.ts): pow hash
   * `powHashes[k]`, nonce his[k]:los[k]; mix digest k into mixDigestsOut at 32·k, result k into resultsOut at 32·k.
   */
  hashimotoBatchInto(
    fullSize: number,
    n: number,
    powHashes: readonly Uint8Array[],
    his: ArrayLike<number>,
    los: ArrayLike<number>,
    mixDigestsOut: Uint8Array,
    resultsOut: Uint8Array,
  ): void {
    if (n < 1 || n > WASM_BATCH_LANES) throw new RangeError(`batch of ${n} out of 1..${WASM_BATCH_LANES}`);
    const words = new DataView(this.bytes.buffer);
    for (let k = 0; k < n; k++) {
      const lane = this.base + k * LANE_BYTES;
      this.bytes.set(powHashes[k], lane + HDR);
      words.setUint32(lane + NONCE, los[k], true);
      words.setUint32(lane + NONCE + 4, his[k], true);
    }
    this.exports.hashimotoBatch(this.base, n, this.cacheBytes / HASH_BYTES, Math.floor(fullSize / MIX_BYTES));
    for (let k = 0; k < n; k++) {
      const lane = this.base + k * LANE_BYTES;
      mixDigestsOut.set(this.bytes.subarray(lane + CMIX, lane + CMIX + 32), 32 * k);
      resultsOut.set(this.bytes.subarray(lane + RES, lane + RES + 32), 32 * k);
    }
  }

  /** Builds the cache for `seed` in place (same result and progress units as cache.ts's buildCache). */
  buildCache(seed: Uint8Array, onProgress?: (done: number, total: number) => void): Uint32Array {
    const items = this.cacheBytes / HASH_BYTES;
    if (!Number.isInteger(items)) throw new RangeError(`cache size ${this.cacheBytes} is not a multiple of 64`);
    const total = items * (1 + CACHE_ROUNDS);
    this.bytes.set(seed, this.base + HDR);
    for (let from = 0; from < items; from += PROGRESS_EVERY) {
      if (from > 0) onProgress?.(from, total);
      this.exports.cacheInit(this.base, from, Math.min(items, from + PROGRESS_EVERY));
    }
    for (let round = 0; round < CACHE_ROUNDS; round++) {
      for (let from = 0; from < items; from += PROGRESS_EVERY) {
        onProgress?.((round + 1) * items + from, total);
        this.exports.cacheRound(this.base, items, from, Math.min(items, from + PROGRESS_EVERY));
      }
    }
    return cacheView(this.memory, this.cacheBytes);
  }
}
