/**
 * The plain keys behind the hashed ones of the state trie, on the dev chain: every address and storage slot a block's
 * execution or an edit wrote, noted as it is written. anvil_dumpState walks the trie, whose keys are keccak hashes,
 * and names each account and slot it finds from here (a hash cannot be turned back).
 *
 * Each key is stored once, in the batch of the first state write after it was noted (trie-db.ts: the block's or the
 * edit's), so a restart names what was written before it: a slot of a mapping (an ERC-20 balance), an address only an
 * edit gave a balance to. Without that a dump after a restart left them out.
 */
import type { ChainDB, WriteBatch } from '../db/chain-db.js';
import { hexKey } from '../db/hex-key.js';
import { keys, Tag } from '../db/keys.js';

const MARK = new Uint8Array([1]);
const ADDRESS_BYTES = 20;

export class WrittenKeys {
  private readonly addresses = new Set<string>();
  private readonly slots = new Set<string>();
  /** Noted and not yet in a batch. */
  private unsaved: Uint8Array[] = [];

  /** The keys `db` holds from earlier runs; what is noted from now on is staged into state batches. */
  static async open(db: ChainDB): Promise<WrittenKeys> {
    const written = new WrittenKeys();
    const iterator = db.keys({ gte: Uint8Array.of(Tag.writtenKey), lt: Uint8Array.of(Tag.writtenKey + 1) });
    try {
      for (let page = await iterator.nextv(1000); page.length > 0; page = await iterator.nextv(1000)) {
        for (const key of page) {
          const hex = hexKey(key.subarray(1));
          (key.length - 1 === ADDRESS_BYTES ? written.addresses : written.slots).add(hex);
        }
      }
    } finally {
      await iterator.close();
    }
    return written;
  }

  // Keys as hexKey's flat text: @ethereumjs/util's bytesToHex builds a rope the sets flatten to hash (~2-3 µs a key,
  // five keys a dev ERC-20 block, on every block assembly's flush: bench/transfer-phases.ts under perf).
  noteAccount(address: Uint8Array): void {
    const hex = hexKey(address);
    if (this.addresses.has(hex)) return;
    this.addresses.add(hex);
    this.unsaved.push(Uint8Array.from(address));
  }

  /** `slot` as the state manager gets it: the 32-byte key. */
  noteSlot(address: Uint8Array, slot: Uint8Array): void {
    this.noteAccount(address);
    const hex = hexKey(slot);
    if (this.slots.has(hex)) return;
    this.slots.add(hex);
    this.unsaved.push(Uint8Array.from(slot));
  }

  /** Puts the keys noted since the last call into `batch`. */
  stageNew(batch: WriteBatch): void {
    for (const key of this.unsaved) batch.put(keys.writtenKey(key), MARK);
    this.unsaved = [];
  }

  /** Every address noted. */
  *allAddresses(): Generator<Uint8Array> {
    for (const hex of this.addresses) yield bytesOf(hex);
  }

  /** Every slot key noted, of any account. */
  *allSlots(): Generator<Uint8Array> {
    for (const hex of this.slots) yield bytesOf(hex);
  }
}

/** A key's text back to bytes (Node's decoder; the text is hexKey's). */
function bytesOf(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
