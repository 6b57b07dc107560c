/**
 * Where a chain database's bytes go, table by table (keys.ts: a table is the first byte of its keys): entries and
 * key and value bytes from one scan of every record, and LevelDB's own estimate of each table's bytes on disk
 * (compressed, in its sorted tables; what the memtable and log hold is not counted there). `svc-node db stats`
 * shows it, offline, so an operator sees what fills the disk.
 */
import { ChainDB } from './chain-db.js';

export interface TableStats {
  /** The table's tag as written in its keys ('H', 'S', …; an unprintable one as 0xNN). */
  readonly tag: string;
  readonly name: string;
  readonly entries: number;
  readonly keyBytes: number;
  readonly valueBytes: number;
  /** LevelDB's `approximateSize` over the table's key range. */
  readonly diskBytes: number;
  /** The trie's table: its nodes and its code apart (the key tells them apart), without a disk estimate each. */
  readonly parts?: readonly TablePart[];
}

export interface TablePart {
  readonly name: string;
  readonly entries: number;
  readonly keyBytes: number;
  readonly valueBytes: number;
}

/** Table names by tag; flat state ('a', 'o') and any tag added later are listed when present. */
const NAMES: Readonly<Record<string, string>> = {
  H: 'headers',
  B: 'bodies',
  R: 'receipts',
  N: 'block numbers',
  T: 'total difficulty',
  K: 'checkpoints (ECIP-1097)',
  C: 'canonical hashes',
  X: 'transaction index',
  S: 'trie nodes and code',
  a: 'flat state: accounts',
  o: 'flat state: storage',
  L: 'log index',
  A: 'address index',
  W: 'written keys (dev)',
  M: 'metadata',
};

/** A state key is a node hash (32 bytes) or 'c' and a code hash (33 bytes): a code entry is the longer key. */
const STATE_CODE_KEY_BYTES = 1 + 1 + 32;

interface Counter {
  entries: number;
  keyBytes: number;
  valueBytes: number;
}

const tagText = (byte: number): string =>
  byte >= 0x21 && byte <= 0x7e ? String.fromCharCode(byte) : `0x${byte.toString(16).padStart(2, '0')}`;

/**
 * Scans every record of `db` (`onProgress` gets the running count every 100 k records), tables in key order.
 */
export async function tableStats(db: ChainDB, onProgress?: (entries: number) => void): Promise<TableStats[]> {
  const counters = new Map<number, Counter>();
  const code: Counter = { entries: 0, keyBytes: 0, valueBytes: 0 };
  const S = 'S'.charCodeAt(0);
  let seen = 0;
  const it = db.entries();
  try {
    for (;;) {
      const page = await it.nextv(1000);
      if (page.length === 0) break;
      for (const [key, value] of page) {
        const tag = key[0] ?? -1;
        const c = tag === S && key.length === STATE_CODE_KEY_BYTES ? code : counterOf(counters, tag);
        c.entries++;
        c.keyBytes += key.length;
        c.valueBytes += value.length;
      }
      const before = seen;
      seen += page.length;
      if (onProgress !== undefined && Math.floor(seen / 100_000) > Math.floor(before / 100_000)) onProgress(seen);
    }
  } finally {
    await it.close();
  }
  const out: TableStats[] = [];
  if (code.entries > 0) counterOf(counters, S);
  for (const tag of [...counters.keys()].sort((a, b) => a - b)) {
    const c = counters.get(tag)!;
    const text = tag < 0 ? '(empty key)' : tagText(tag);
    const diskBytes = tag < 0 ? 0 : await db.approximateSize(Uint8Array.of(tag), Uint8Array.of(tag + 1));
    const name = NAMES[text] ?? 'unknown table';
    if (tag !== S || code.entries === 0) {
      out.push({ tag: text, name, ...c, diskBytes });
      continue;
    }
    out.push({
      tag: text,
      name,
      entries: c.entries + code.entries,
      keyBytes: c.keyBytes + code.keyBytes,
      valueBytes: c.valueBytes + code.valueBytes,
      diskBytes,
      parts: [
        { name: 'trie nodes', ...c },
        { name: 'contract code', ...code },
      ],
    });
  }
  return out;
}

function counterOf(counters: Map<number, Counter>, tag: number): Counter {
  let c = counters.get(tag);
  if (c === undefined) {
    c = { entries: 0, keyBytes: 0, valueBytes: 0 };
    counters.set(tag, c);
  }
  return c;
}

/**
 * The stats of the chain database in `dir` (a datadir's `chaindata`), opened for the scan and closed after; throws
 * DatabaseLockedError while a node holds it. The caller checks the database exists (opening would create one).
 */
export async function chainDbTableStats(dir: string, onProgress?: (entries: number) => void): Promise<TableStats[]> {
  const db = await ChainDB.open(dir);
  try {
    return await tableStats(db, onProgress);
  } finally {
    await db.close();
  }
}
