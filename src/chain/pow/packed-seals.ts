/**
 * Seals as one flat byte array for the seal workers (seal-pool.ts), handed over without a copy: each seal's byte
 * fields are views into its decoded header, and cloning a batch of them object by object cost the importing thread
 * ~40 µs a seal (postMessage, profiled on the era1 import), more than a quarter of the seal's own check.
 *
 * A seal is 104 bytes: pow hash (32), nonce (8, big-endian), mix digest (32), difficulty (32, big-endian). A batch
 * with a seal that does not fit that (wrong lengths, a difficulty not in 1 … 2²⁵⁶ − 1, a nonce past 64 bits) is not
 * packed: it goes as objects, so its verdict names the fault as before.
 */
import type { SealInput } from './seal.js';

const SEAL_BYTES = 104;
const MAX_DIFFICULTY = (1n << 256n) - 1n;

/** The seals packed, or undefined when one of them does not fit the layout. */
export function packSeals(seals: readonly SealInput[]): Uint8Array<ArrayBuffer> | undefined {
  const out = new Uint8Array(seals.length * SEAL_BYTES);
  const view = new DataView(out.buffer);
  for (let i = 0; i < seals.length; i++) {
    const s = seals[i]!;
    const at = i * SEAL_BYTES;
    if (s.powHash.length !== 32 || s.mixDigest.length !== 32) return undefined;
    if (s.difficulty <= 0n || s.difficulty > MAX_DIFFICULTY) return undefined;
    out.set(s.powHash, at);
    if (typeof s.nonce === 'bigint') {
      if (s.nonce < 0n || s.nonce >= 1n << 64n) return undefined;
      view.setBigUint64(at + 32, s.nonce);
    } else {
      if (s.nonce.length !== 8) return undefined;
      out.set(s.nonce, at + 32);
    }
    out.set(s.mixDigest, at + 40);
    let d = s.difficulty;
    for (let k = 3; k >= 0 && d > 0n; k--) {
      view.setBigUint64(at + 72 + k * 8, d & 0xffffffffffffffffn);
      d >>= 64n;
    }
  }
  return out;
}

/** The seals of a packed batch (views into it). */
export function unpackSeals(packed: Uint8Array): SealInput[] {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  const seals: SealInput[] = [];
  for (let at = 0; at + SEAL_BYTES <= packed.length; at += SEAL_BYTES) {
    let difficulty = 0n;
    for (let k = 0; k < 4; k++) difficulty = (difficulty << 64n) | view.getBigUint64(at + 72 + k * 8);
    seals.push({
      powHash: packed.subarray(at, at + 32),
      nonce: packed.subarray(at + 32, at + 40),
      mixDigest: packed.subarray(at + 40, at + 72),
      difficulty,
    });
  }
  return seals;
}
