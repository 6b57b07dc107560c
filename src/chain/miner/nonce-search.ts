/**
 * Searches an Ethash nonce on the event loop in short chunks. One light hash costs a few milliseconds, so a
 * chunk is sized from the measured cost to take about `chunkMs`, and the search yields (setImmediate) between
 * chunks: RPC requests keep being served while the CPU miner works, and a cancelled search stops within a
 * chunk. At the dev difficulty (2) the first chunk almost always wins, so sealing costs ~2 hashes.
 *
 * Why not a worker thread: dev seals finish in one chunk where a worker round trip would only add
 * latency, and on this 2-core machine the event loop stays responsive with 10 ms chunks (bench/mining.ts
 * measures the event-loop delay while the CPU miner runs).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { MinedSeal } from '../pow/seal.js';
import type { MinerPow } from './ports.js';

export interface SealTarget {
  readonly powHash: Uint8Array;
  readonly difficulty: bigint;
  readonly blockNumber: bigint;
}

export interface NonceSearchOptions {
  /** Checked before every chunk; returning true ends the search without a seal. */
  readonly cancelled?: () => boolean;
  /** Wall time a chunk should take before the search yields (default 10 ms). */
  readonly chunkMs?: number;
  /** After each chunk: hashes tried and milliseconds spent (feeds the hash-rate meter). */
  readonly onProgress?: (hashes: number, ms: number) => void;
  /** First nonce to try; default random, so concurrent searchers (and external miners) do not overlap. */
  readonly startNonce?: bigint;
}

/** Running estimate of one light hash's cost, shared by all searches in the thread. */
let msPerHash = 3;

export function randomNonce(): bigint {
  return randomBytes(8).readBigUInt64BE();
}

/** Finds a seal for `target`, or undefined if cancelled. */
export async function searchNonce(
  pow: MinerPow,
  target: SealTarget,
  options: NonceSearchOptions = {},
): Promise<MinedSeal | undefined> {
  const chunkMs = options.chunkMs ?? 10;
  let nonce = options.startNonce ?? randomNonce();
  for (;;) {
    if (options.cancelled?.() === true) return undefined;
    const iterations = Math.max(1, Math.min(100_000, Math.round(chunkMs / msPerHash)));
    const started = performance.now();
    const found = await pow.mine(target.powHash, target.difficulty, target.blockNumber, nonce, iterations);
    const spent = performance.now() - started;
    const hashes = found?.attempts ?? iterations;
    // A first call may include loading or building the epoch cache: not a hashing cost.
    const sample = spent / hashes;
    if (sample > 0 && sample < 250) msPerHash = 0.8 * msPerHash + 0.2 * sample;
    options.onProgress?.(hashes, spent);
    if (found !== undefined) return found;
    nonce = BigInt.asUintN(64, nonce + BigInt(iterations));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
