/**
 * Key schema of the chain database. Every key is binary: a one-byte table tag, then the record's id.
 *
 *   'H' hash32          → header RLP                         (every stored block, canonical or not)
 *   'B' hash32          → body RLP [txs, uncles]      (absent for a bulk-built empty block: its header says it is empty)
 *   'R' hash32          → receipts RLP (see receipt-codec.ts)   (likewise absent for such a block)
 *   'N' hash32          → block number, 8 bytes big-endian   (absent for a bulk-built empty block: its header's)
 *   'T' hash32          → total difficulty, big-endian bytes
 *   'K' hash32          → number of the latest checkpoint block in the chain ending here (ECIP-1097 chains only)
 *   'C' number8         → canonical block hash at that height
 *   'X' txHash32        → RLP [blockHash, index] for canonical transactions only
 *   'S' trieKey         → state trie node (32-byte hash) or contract code ('c' + code hash)
 *   'M' name            → metadata: head hash, genesis hash, schema version, ECIP-1097 activation block
 *   'W' address | slot  → (dev chain) a plain state key written, for anvil_dumpState (state/written-keys.ts)
 *   'a' keccak(address) → flat state: the account trie's leaf value at the head (state/flat-table.ts)
 *   'o' keccak(address) keccak(slot) → flat state: the storage trie's leaf value at the head
 *   ('A' and 'L' are the address and log indexes' own tags: history/address-index.ts, logs/log-index.ts)
 *
 * Big-endian numbers keep 'C' keys in height order, so a range delete drops everything above a height.
 */
const tag = (c: string): number => c.charCodeAt(0);

/** Where a key's (or small value's) bytes come from: a fresh array, or a bulk write's arena (record-arena.ts). */
export type Allocate = (length: number) => Uint8Array;

const fresh: Allocate = (length) => new Uint8Array(length);

function tagged(t: number, id: Uint8Array, allocate: Allocate = fresh): Uint8Array {
  const key = allocate(1 + id.length);
  key[0] = t;
  key.set(id, 1);
  return key;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function encodeNumber(n: bigint, allocate: Allocate = fresh): Uint8Array {
  const out = allocate(8);
  writeNumber(out, 0, n);
  return out;
}

/** `n` as 8 bytes big-endian at `out[at]`. */
function writeNumber(out: Uint8Array, at: number, n: bigint): void {
  // Two 32-bit halves from a Number while exact (every real height): a DataView per key cost more than the write.
  if (n >= 0n && n <= MAX_SAFE) {
    const x = Number(n);
    const high = Math.floor(x / 0x1_0000_0000);
    const low = x - high * 0x1_0000_0000;
    out[at] = high >>> 24;
    out[at + 1] = (high >>> 16) & 0xff;
    out[at + 2] = (high >>> 8) & 0xff;
    out[at + 3] = high & 0xff;
    out[at + 4] = low >>> 24;
    out[at + 5] = (low >>> 16) & 0xff;
    out[at + 6] = (low >>> 8) & 0xff;
    out[at + 7] = low & 0xff;
    return;
  }
  new DataView(out.buffer, out.byteOffset + at, 8).setBigUint64(0, n);
}

export function decodeNumber(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0);
}

export const Tag = {
  header: tag('H'),
  body: tag('B'),
  receipts: tag('R'),
  number: tag('N'),
  totalDifficulty: tag('T'),
  lastCheckpoint: tag('K'),
  canonical: tag('C'),
  txLookup: tag('X'),
  state: tag('S'),
  meta: tag('M'),
  writtenKey: tag('W'),
  flatAccount: tag('a'),
  flatStorage: tag('o'),
} as const;

/** Meta names' bytes, encoded once: each block's write names two (head, flat state), and encode() is ~4 µs a call. */
const metaNames = new Map<MetaName, Uint8Array>();

export const keys = {
  header: (hash: Uint8Array, allocate?: Allocate) => tagged(Tag.header, hash, allocate),
  body: (hash: Uint8Array) => tagged(Tag.body, hash),
  receipts: (hash: Uint8Array) => tagged(Tag.receipts, hash),
  number: (hash: Uint8Array, allocate?: Allocate) => tagged(Tag.number, hash, allocate),
  totalDifficulty: (hash: Uint8Array, allocate?: Allocate) => tagged(Tag.totalDifficulty, hash, allocate),
  lastCheckpoint: (hash: Uint8Array) => tagged(Tag.lastCheckpoint, hash),
  canonical: (n: bigint, allocate: Allocate = fresh) => {
    const key = allocate(9);
    key[0] = Tag.canonical;
    writeNumber(key, 1, n);
    return key;
  },
  txLookup: (txHash: Uint8Array) => tagged(Tag.txLookup, txHash),
  state: (trieKey: Uint8Array, allocate?: Allocate) => tagged(Tag.state, trieKey, allocate),
  meta: (name: MetaName) => {
    let bytes = metaNames.get(name);
    if (bytes === undefined) metaNames.set(name, (bytes = new TextEncoder().encode(name)));
    return tagged(Tag.meta, bytes);
  },
  writtenKey: (key: Uint8Array) => tagged(Tag.writtenKey, key),
  flatAccount: (hashedAddress: Uint8Array) => tagged(Tag.flatAccount, hashedAddress),
  flatStorage: (hashedAddress: Uint8Array, hashedSlot: Uint8Array) => {
    const key = new Uint8Array(65);
    key[0] = Tag.flatStorage;
    key.set(hashedAddress, 1);
    key.set(hashedSlot, 33);
    return key;
  },
};

/**
 * `checkpointing`: the ECIP-1097 activation block the database was created with (absent = created without).
 * `snapBase`: the block whose state a snap sync downloaded (see state/snap-base.ts); absent on a node that executed
 * every block from genesis. `snapSync`: a snap sync in progress (its pivot and range cursors, p2p/snap/sync/), removed
 * when it hands over. `snapBackfill`: after a snap sync, the lowest block from which every body and receipt list is
 * stored (history/backfill-store.ts); absent until the backfill stores its first batch.
 * `forkBase`: on a forked chain (fork/fork-base.ts), the upstream block it starts on; absent on every other chain.
 * `editedState`: on a dev chain whose state was edited in place (state/edited-roots.ts), each edited block's post-state
 * root; absent when nothing was edited.
 * `flatState`: what the flat table ('a'/'o') holds: the state root it equals, and while it is being built the
 * build's cursor (state/flat-table.ts); absent: no table (fork mode, an old datadir, being cleared).
 * `gcMode`: the `--gcmode` the datadir was last opened with ('full' or 'archive', ASCII; absent before pruning
 * existed, which is archive). Once full, older states are gone and the datadir cannot be opened as an archive.
 */
export type MetaName =
  | 'head'
  | 'genesis'
  | 'version'
  | 'checkpointing'
  | 'snapBase'
  | 'snapSync'
  | 'snapBackfill'
  | 'forkBase'
  | 'editedState'
  | 'flatState'
  | 'gcMode';

export const SCHEMA_VERSION = 1;
