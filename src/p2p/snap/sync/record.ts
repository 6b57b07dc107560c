/**
 * The snap sync's progress record (meta 'snapSync'), rewritten with every batch the sync stores: which pivot it
 * works on, how far the header chain is stored, which account-range chunks are left and from where, and the
 * counters shown to operators. A restart after SIGKILL reads it and goes on from there; at worst a range whose
 * batch raced another is fetched twice, which is harmless (the trie nodes are content-addressed).
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

export type SnapPhase = 'headers' | 'accounts' | 'healing';
const PHASES: readonly SnapPhase[] = ['headers', 'accounts', 'healing'];

export interface Chunk {
  /** Next account hash to ask for. */
  next: Uint8Array;
  /** Last account hash of this chunk (inclusive). */
  readonly last: Uint8Array;
}

export interface BlockRefTd {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly td: bigint;
}

export interface SnapCounters {
  accounts: number;
  slots: number;
  codes: number;
  healed: number;
}

export interface SnapRecord {
  phase: SnapPhase;
  pivot: BlockRefTd;
  /** The highest stored header of the chain to the pivot. */
  headerTip: BlockRefTd;
  chunks: Chunk[];
  counters: SnapCounters;
}

const RECORD_VERSION = 1n;
const num = (n: bigint | number) => bigIntToUnpaddedBytes(BigInt(n));
const refOf = (r: BlockRefTd) => [num(r.number), r.hash, num(r.td)];
const readRef = (v: Uint8Array[]): BlockRefTd => ({
  number: bytesToBigInt(v[0]!),
  hash: v[1]!,
  td: bytesToBigInt(v[2]!),
});

export function encodeRecord(r: SnapRecord): Uint8Array {
  const c = r.counters;
  return RLP.encode([
    num(RECORD_VERSION),
    num(PHASES.indexOf(r.phase)),
    refOf(r.pivot),
    refOf(r.headerTip),
    r.chunks.map((k) => [k.next, k.last]),
    [num(c.accounts), num(c.slots), num(c.codes), num(c.healed)],
  ]);
}

/** The stored record; undefined when there is none or it is of another version (the sync then starts afresh). */
export function decodeRecord(bytes: Uint8Array | undefined): SnapRecord | undefined {
  if (bytes === undefined) return undefined;
  const [version, phase, pivot, tip, chunks, counters] = RLP.decode(bytes) as unknown as [
    Uint8Array,
    Uint8Array,
    Uint8Array[],
    Uint8Array[],
    Uint8Array[][],
    Uint8Array[],
  ];
  if (bytesToBigInt(version) !== RECORD_VERSION) return undefined;
  const n = (b: Uint8Array | undefined) => Number(bytesToBigInt(b ?? new Uint8Array()));
  return {
    phase: PHASES[n(phase)] ?? 'headers',
    pivot: readRef(pivot),
    headerTip: readRef(tip),
    chunks: chunks.map(([next, last]) => ({ next: next!, last: last! })),
    counters: { accounts: n(counters[0]), slots: n(counters[1]), codes: n(counters[2]), healed: n(counters[3]) },
  };
}

/** The 2^256 account-hash space in `count` equal chunks. */
export function splitKeySpace(count: number): Chunk[] {
  const space = 1n << 256n;
  const step = space / BigInt(count);
  const chunks: Chunk[] = [];
  for (let i = 0; i < count; i++) {
    const first = step * BigInt(i);
    const last = i === count - 1 ? space - 1n : step * BigInt(i + 1) - 1n;
    chunks.push({ next: hash32(first), last: hash32(last) });
  }
  return chunks;
}

export function hash32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The hash right after `h`, or undefined past the top of the space. */
export function incHash(h: Uint8Array): Uint8Array | undefined {
  const n = bytesToBigInt(h) + 1n;
  return n >= 1n << 256n ? undefined : hash32(n);
}
