/**
 * A stand-in for the flat state in tests of its readers: every account and slot of one or more states, read by
 * walking their tries once into sorted arrays. It answers exactly what a correct flat state would, counts the
 * reads it answers, and can be told to answer wrong values (`tamper`) so a test sees which reads it served.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import type { FlatEntry, FlatReader } from '../../../src/chain/state/flat-reader.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { trieRangeNow } from '../../../src/chain/state/trie-range-now.js';

const ZERO = new Uint8Array(32);

interface Table {
  readonly sorted: FlatEntry[];
  readonly byKey: Map<string, Uint8Array>;
}

function table(entries: FlatEntry[]): Table {
  return { sorted: entries, byKey: new Map(entries.map((e) => [bytesToUnprefixedHex(e.key), e.value])) };
}

/** Entries from `start` (inclusive): at most `maxCount`, stopping once `maxBytes` of values are reached. */
function range(t: Table, start: Uint8Array, maxCount: number, maxBytes: number): FlatEntry[] {
  let lo = 0;
  let hi = t.sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (Buffer.compare(t.sorted[mid]!.key, start) < 0) lo = mid + 1;
    else hi = mid;
  }
  const out: FlatEntry[] = [];
  let bytes = 0;
  for (let i = lo; i < t.sorted.length && out.length < maxCount && bytes < maxBytes; i++) {
    out.push(t.sorted[i]!);
    bytes += t.sorted[i]!.value.length;
  }
  return out;
}

interface State {
  readonly accounts: Table;
  readonly storage: Map<string, Table>;
}

export class FlatDouble implements FlatReader {
  private readonly states = new Map<string, State>();
  /** Point reads answered (accounts and slots), range calls answered. */
  reads = 0;
  ranges = 0;
  /** Changes every value answered by a point read (tests of which reads come from here). */
  tamper: ((value: Uint8Array, kind: 'account' | 'slot') => Uint8Array) | undefined;

  constructor(private readonly store: TrieNodeStore) {}

  /** Adds the state under `root`, walked from the store's trie. */
  add(root: Uint8Array): this {
    const read = (hash: Uint8Array) => this.store.readStored(hash);
    const accounts = trieRangeNow(read, root, ZERO, Number.POSITIVE_INFINITY)!.entries;
    const storage = new Map<string, Table>();
    for (const account of accounts) {
      const storageRoot = (RLP.decode(account.value) as Uint8Array[])[2]!;
      if (equalsBytes(storageRoot, KECCAK256_RLP)) continue;
      const slots = trieRangeNow(read, storageRoot, ZERO, Number.POSITIVE_INFINITY)!.entries;
      storage.set(bytesToUnprefixedHex(account.key), table(slots));
    }
    this.states.set(bytesToUnprefixedHex(root), { accounts: table(accounts), storage });
    return this;
  }

  drop(root: Uint8Array): void {
    this.states.delete(bytesToUnprefixedHex(root));
  }

  covers(root: Uint8Array): boolean {
    return this.states.has(bytesToUnprefixedHex(root));
  }

  account(root: Uint8Array, hashedAddress: Uint8Array): Uint8Array | null | undefined {
    const state = this.states.get(bytesToUnprefixedHex(root));
    if (state === undefined) return undefined;
    this.reads++;
    const value = state.accounts.byKey.get(bytesToUnprefixedHex(hashedAddress)) ?? null;
    return value === null || this.tamper === undefined ? value : this.tamper(value, 'account');
  }

  storage(root: Uint8Array, hashedAddress: Uint8Array, hashedSlot: Uint8Array): Uint8Array | null | undefined {
    const state = this.states.get(bytesToUnprefixedHex(root));
    if (state === undefined) return undefined;
    this.reads++;
    const value =
      state.storage.get(bytesToUnprefixedHex(hashedAddress))?.byKey.get(bytesToUnprefixedHex(hashedSlot)) ?? null;
    return value === null || this.tamper === undefined ? value : this.tamper(value, 'slot');
  }

  async accountRange(
    root: Uint8Array,
    start: Uint8Array,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined> {
    const state = this.states.get(bytesToUnprefixedHex(root));
    if (state === undefined) return undefined;
    this.ranges++;
    return range(state.accounts, start, maxCount, maxBytes);
  }

  async storageRange(
    root: Uint8Array,
    hashedAddress: Uint8Array,
    start: Uint8Array,
    maxCount: number,
    maxBytes: number,
  ): Promise<FlatEntry[] | undefined> {
    const state = this.states.get(bytesToUnprefixedHex(root));
    if (state === undefined) return undefined;
    this.ranges++;
    const slots = state.storage.get(bytesToUnprefixedHex(hashedAddress));
    return slots === undefined ? [] : range(slots, start, maxCount, maxBytes);
  }
}
