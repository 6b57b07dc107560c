/**
 * Keccak-512/256 for Ethash, backed by hash-wasm's WASM Keccak.
 *
 * Measured on 64-byte inputs on this 2-core host (µs per call, see bench/ethash.ts and the report):
 * hash-wasm ~1.7–2.5, a hand-unrolled TypeScript Keccak-f[1600] over 32-bit halves ~3.2–3.9,
 * native `keccak` ~7.1–7.5 (N-API call and Buffer overhead dominate), @noble/hashes ~12.7.
 * hash-wasm's instance is created asynchronously, so each thread calls `loadKeccak()` once; after
 * that every function here is synchronous.
 */
import { createKeccak, type IHasher } from 'hash-wasm';

let k512: IHasher | undefined;
let k256: IHasher | undefined;
let loading: Promise<void> | undefined;

/** Instantiates the WASM hashers for this thread; idempotent. */
export function loadKeccak(): Promise<void> {
  loading ??= Promise.all([createKeccak(512), createKeccak(256)]).then(([a, b]) => {
    k512 = a;
    k256 = b;
  });
  return loading;
}

export function keccakLoaded(): boolean {
  return k512 !== undefined;
}

function notLoaded(): never {
  throw new Error('Keccak is not loaded: await loadKeccak() first');
}

/** keccak512(input) written into out[outOffset .. outOffset + 64). */
export function keccak512Into(input: Uint8Array, out: Uint8Array, outOffset = 0): void {
  const h = k512 ?? notLoaded();
  out.set(h.init().update(input).digest('binary'), outOffset);
}

/** keccak256(input) written into out[outOffset .. outOffset + 32). */
export function keccak256Into(input: Uint8Array, out: Uint8Array, outOffset = 0): void {
  const h = k256 ?? notLoaded();
  out.set(h.init().update(input).digest('binary'), outOffset);
}

export function keccak256(input: Uint8Array): Uint8Array {
  const h = k256 ?? notLoaded();
  return h.init().update(input).digest('binary');
}
