/** Test helpers for the flat state: the table (or a diff-layer read) against a walk of the trie. */
import { Address, bytesToHex } from '@ethereumjs/util';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import type { ChainDB } from '../../../src/chain/db/chain-db.js';
import { Tag } from '../../../src/chain/db/keys.js';
import type { FlatTable } from '../../../src/chain/state/flat-table.js';
import { storageRootOf, walkRoot } from '../../../src/chain/state/flat-table.js';
import { TrieWalker } from '../../../src/chain/state/trie-walk.js';

/** The kill test's contract with many slots (its child edits them during the build). */
export const BIG = new Address(new Uint8Array(20).fill(0xb1));
export const slotKey = (s: number) => Uint8Array.from(Buffer.from(s.toString(16).padStart(64, '0'), 'hex'));

export function flatOf(chain: Blockchain): FlatTable {
  return (chain as unknown as { view: { flat: FlatTable } }).view.flat;
}

export function dbOf(chain: Blockchain): ChainDB {
  return (chain as unknown as { db: ChainDB }).db;
}

/** Every leaf of the state of `root` as flat keys (hex) → values (hex). */
export function trieEntries(chain: Blockchain, root: Uint8Array): Map<string, string> {
  const flat = flatOf(chain);
  const walker = new TrieWalker(flat.readNode);
  const out = new Map<string, string>();
  walker.leaves(walkRoot(root), (account, value) => {
    out.set(`61${hex(account)}`, hex(value));
    const storage = storageRootOf(value);
    if (storage.length > 0) walker.leaves(storage, (slot, v) => out.set(`6f${hex(account)}${hex(slot)}`, hex(v)));
  });
  return out;
}

/** Every 'a' and 'o' record of the table. */
export async function tableEntries(chain: Blockchain): Promise<Map<string, string>> {
  const db = dbOf(chain);
  await db.flushed();
  const out = new Map<string, string>();
  for (const tag of [Tag.flatAccount, Tag.flatStorage]) {
    const it = db.entriesNow({ gte: Uint8Array.of(tag), lt: Uint8Array.of(tag + 1) })!;
    for (;;) {
      const page = await it.nextv(1000);
      if (page.length === 0) break;
      for (const [k, v] of page) out.set(hex(k), hex(v));
    }
    await it.close();
  }
  return out;
}

/** Reads through the FlatReader at `root` of every key the trie or the table has. */
export function readerEntries(chain: Blockchain, root: Uint8Array, keys: Iterable<string>): Map<string, string> {
  const flat = flatOf(chain);
  const out = new Map<string, string>();
  for (const k of keys) {
    const bytes = Buffer.from(k, 'hex');
    const v =
      bytes[0] === Tag.flatAccount
        ? flat.account(root, bytes.subarray(1, 33))
        : flat.storage(root, bytes.subarray(1, 33), bytes.subarray(33, 65));
    if (v === undefined) throw new Error(`not covered: ${bytesToHex(root)}`);
    if (v !== null) out.set(k, hex(v));
  }
  return out;
}

/** Waits until the background build (if any) is done. */
export async function flatReady(chain: Blockchain, timeoutMs = 30_000): Promise<void> {
  const flat = flatOf(chain);
  const until = Date.now() + timeoutMs;
  while (flat.mode !== 'ready') {
    if (Date.now() > until) throw new Error(`flat state still ${flat.mode}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}
