/**
 * Matching logs against criteria: exact matching on a log, and the cheap "may match" test on a
 * logs bloom that lets a block be skipped without reading its receipts.
 */
import { keccak256 } from '../base/crypto.js';
import type { LogCriteria, ReceiptLog } from './types.js';

/** Criteria in the form matching wants: wildcards as undefined, OR-sets without duplicates. */
export interface CompiledCriteria {
  /** Any of these addresses; undefined = any. */
  readonly addresses: readonly Uint8Array[] | undefined;
  /** Per position: any of these topics; undefined = any topic (but the position must exist). */
  readonly topics: readonly (readonly Uint8Array[] | undefined)[];
  /** Bloom bits per OR-set: a block may match only if, for every set, some value has all its bits. */
  readonly bloomSets: readonly (readonly BloomBits[])[];
}

/** The three (byte index, mask) pairs a value sets in a 2048-bit logs bloom. */
type BloomBits = readonly [number, number, number, number, number, number];

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function uniqueValues(values: readonly Uint8Array[]): Uint8Array[] | undefined {
  const out: Uint8Array[] = [];
  for (const v of values) if (!out.some((o) => bytesEqual(o, v))) out.push(v);
  // An empty OR-set would match nothing; clients (and geth) mean "any", so it is a wildcard.
  return out.length === 0 ? undefined : out;
}

/** The bloom bits of a value, as the yellow paper's M3:2048 sets them. */
export function bloomBits(value: Uint8Array): BloomBits {
  const h = keccak256(value);
  const bits: number[] = [];
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i] << 8) | h[i + 1]) & 2047;
    bits.push(255 - (bit >> 3), 1 << (bit & 7));
  }
  return bits as unknown as BloomBits;
}

export function compileCriteria(criteria: LogCriteria): CompiledCriteria {
  const addresses = criteria.addresses === undefined ? undefined : uniqueValues(criteria.addresses);
  const topics = (criteria.topics ?? []).map((t) =>
    t === null ? undefined : t instanceof Uint8Array ? [t] : uniqueValues(t),
  );
  // Bloom bits cost a keccak per value and only a bloom check reads them (a query answered from the log index, the
  // common case, never does): made on first use.
  let bloomSets: BloomBits[][] | undefined;
  return {
    addresses,
    topics,
    get bloomSets() {
      if (bloomSets === undefined) {
        bloomSets = [];
        for (const set of [addresses, ...topics]) if (set !== undefined) bloomSets.push(set.map(bloomBits));
      }
      return bloomSets;
    },
  };
}

/** Whether `value` is one of `set` (loops, not `some`: called per log of every block a query reads). */
function oneOf(set: readonly Uint8Array[], value: Uint8Array): boolean {
  for (let i = 0; i < set.length; i++) if (bytesEqual(set[i]!, value)) return true;
  return false;
}

export function matchesLog(c: CompiledCriteria, log: ReceiptLog): boolean {
  if (c.addresses !== undefined && !oneOf(c.addresses, log.address)) return false;
  if (c.topics.length > log.topics.length) return false;
  for (let i = 0; i < c.topics.length; i++) {
    const wanted = c.topics[i];
    if (wanted !== undefined && !oneOf(wanted, log.topics[i]!)) return false;
  }
  return true;
}

function hasBits(bloom: Uint8Array, b: BloomBits): boolean {
  return (bloom[b[0]] & b[1]) !== 0 && (bloom[b[2]] & b[3]) !== 0 && (bloom[b[4]] & b[5]) !== 0;
}

/** False only when no log of a block with this bloom can match (blooms have false positives, never false negatives). */
export function bloomMayMatch(c: CompiledCriteria, bloom: Uint8Array): boolean {
  return c.bloomSets.every((set) => set.some((bits) => hasBits(bloom, bits)));
}

/** True when the criteria accept every log (no address, no topic constraint). */
export function isWildcard(c: CompiledCriteria): boolean {
  return c.addresses === undefined && c.topics.every((t) => t === undefined);
}
