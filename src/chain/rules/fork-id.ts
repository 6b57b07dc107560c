/**
 * EIP-2124 fork identifiers for ETC: the `[forkHash, forkNext]` pair every eth STATUS carries, and the rules that
 * decide whether a peer's pair is compatible with our chain. ETC follows ECIP-1091: the fork list is simply every
 * activation block of its schedule (no DAO block, no ECIP-1017 era boundaries).
 */
import * as zlib from 'node:zlib';
import type { NetworkDefinition } from '../networks/types.js';

export interface ForkId {
  /** CRC32 of the genesis hash and every passed fork block (8 bytes big-endian each), big-endian, 4 bytes. */
  readonly hash: Uint8Array;
  /** The next fork block we know of, 0 when none. */
  readonly next: bigint;
}

/** Sorted, de-duplicated activation blocks > 0 of every fork in the network's schedule (ECIP-1091: no DAO, no era boundaries). */
export function forkBlocksOf(def: NetworkDefinition): bigint[] {
  return normaliseForkBlocks(Object.values(def.forks).filter((b): b is bigint => b !== null));
}

/** Forks at block 0 are part of the genesis rules, and several forks at one block count once (EIP-2124). */
function normaliseForkBlocks(blocks: readonly bigint[]): bigint[] {
  const sorted = blocks.filter((b) => b > 0n).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.filter((b, i) => i === 0 || b !== sorted[i - 1]);
}

// ------------------------------------------------------------------ CRC32 (IEEE)

let crcTable: Uint32Array | undefined;

/**
 * Table-driven IEEE CRC32, continuing from `previous` (the CRC of the bytes before `data`). Used where Node lacks
 * `zlib.crc32` (added in 20.15; `engines` allows any Node 20).
 */
export function crc32Portable(data: Uint8Array, previous = 0): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = ~previous >>> 0;
  for (const byte of data) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** IEEE CRC32 of `data` continuing from `previous`: `crc32(b, crc32(a)) === crc32(a ++ b)`. */
export const crc32: (data: Uint8Array, previous?: number) => number =
  typeof nativeCrc32 === 'function' ? (data, previous = 0) => nativeCrc32(data, previous) >>> 0 : crc32Portable;

function uint64BE(value: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value);
  return out;
}

function uint32BE(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

const hex32 = (value: number): string => value.toString(16).padStart(8, '0');

// ------------------------------------------------------------------ the table

/**
 * Every fork hash of one chain, computed once: `at(head)` for our STATUS and `check` for theirs. Precomputing all
 * of them matters: validation must recognise hashes of forks we have not reached yet (rule 3), and a peer's
 * past-fork hash (rule 2), not only the hash at our head.
 */
export class ForkIdTable {
  /** Fork blocks, ascending, > 0. */
  readonly forks: readonly bigint[];
  /** sums[i] = fork hash after the first i forks (sums[0] = CRC32 of the genesis hash). */
  readonly #sums: readonly number[];

  constructor(genesisHash: Uint8Array, forkBlocks: readonly bigint[]) {
    if (genesisHash.length !== 32) throw new Error(`genesis hash must be 32 bytes, got ${genesisHash.length}`);
    this.forks = normaliseForkBlocks(forkBlocks);
    const sums = [crc32(genesisHash)];
    for (const fork of this.forks) sums.push(crc32(uint64BE(fork), sums[sums.length - 1]));
    this.#sums = sums;
  }

  /** How many forks are active at `head` (= index of our current fork hash). */
  #passed(head: bigint): number {
    let i = 0;
    while (i < this.forks.length && head >= this.forks[i]!) i++;
    return i;
  }

  at(head: bigint): ForkId {
    const i = this.#passed(head);
    return { hash: uint32BE(this.#sums[i]!), next: this.forks[i] ?? 0n };
  }

  /** EIP-2124 validation of a remote id against our head: true, or a reason string naming the mismatch. */
  check(head: bigint, remote: ForkId): true | string {
    if (remote.hash.length !== 4) return `fork hash must be 4 bytes, got ${remote.hash.length}`;
    const theirs = new DataView(remote.hash.buffer, remote.hash.byteOffset, 4).getUint32(0);
    const shown = `${hex32(theirs)}/${remote.next}`;
    const i = this.#passed(head);

    // Rule 1: same fork state now. Their announced next fork must not be one we already passed without applying it.
    if (this.#sums[i] === theirs) {
      if (remote.next > 0n && head >= remote.next) {
        return `local incompatible or needs update: peer ${shown} expects a fork at block ${remote.next}, which our chain passed (head ${head}) without one`;
      }
      return true;
    }
    // Rule 2: they are behind us (a subset of our past forks) and know our next fork after that point.
    for (let j = 0; j < i; j++) {
      if (this.#sums[j] === theirs) {
        if (this.forks[j] !== remote.next) {
          return `remote needs update: peer ${shown} is at our fork state before block ${this.forks[j]}, but announces next fork ${remote.next} instead of ${this.forks[j]}`;
        }
        return true;
      }
    }
    // Rule 3: they are ahead of us on forks we know of (we are syncing).
    for (let j = i + 1; j < this.#sums.length; j++) if (this.#sums[j] === theirs) return true;

    return `local incompatible or needs update: peer fork id ${shown} matches none of our fork hashes (ours at head ${head} is ${hex32(this.#sums[i]!)}/${this.forks[i] ?? 0n})`;
  }
}
