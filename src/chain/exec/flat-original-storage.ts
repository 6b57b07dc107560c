import { OriginalStorageCache } from '@ethereumjs/statemanager';
import type { Address } from '@ethereumjs/util';
import { hexKey as hex } from '../db/hex-key.js';

/** The flat state's reads used here (flat-state.ts). */
interface SlotReader {
  getStorage(address: Address, key: Uint8Array): Promise<Uint8Array>;
  knownStorage(address: Address, key: Uint8Array): Uint8Array | undefined;
}

/**
 * The library's original-value cache (values at the transaction's start, for SSTORE's gas), with `known`: what `get`
 * answers when the cache or the flat state holds the slot, without an await (lean-storage-opcodes.ts). `get` on a
 * miss reads the slot's current value and keeps it; `known` does the same from `knownStorage`. Its keys are made
 * with hexKey, the same text as the library's `bytesToUnprefixedHex` without its string of ~32 pieces per key.
 */
export class FlatOriginalStorage extends OriginalStorageCache {
  constructor(private readonly flat: SlotReader) {
    super((address, key) => flat.getStorage(address, key));
  }

  private slots(address: Address): Map<string, Uint8Array> | undefined {
    return (this as unknown as { map: Map<string, Map<string, Uint8Array>> }).map.get(hex(address.bytes));
  }

  override async get(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const kept = this.slots(address)?.get(hex(key));
    if (kept !== undefined) return kept;
    const value = await this.flat.getStorage(address, key);
    this.put(address, key, value);
    return value;
  }

  override put(address: Address, key: Uint8Array, value: Uint8Array): void {
    const map = (this as unknown as { map: Map<string, Map<string, Uint8Array>> }).map;
    const addressKey = hex(address.bytes);
    let slots = map.get(addressKey);
    if (slots === undefined) map.set(addressKey, (slots = new Map()));
    const slot = hex(key);
    if (!slots.has(slot)) slots.set(slot, value);
  }

  known(address: Address, key: Uint8Array): Uint8Array | undefined {
    const kept = this.slots(address)?.get(hex(key));
    if (kept !== undefined) return kept;
    const current = this.flat.knownStorage(address, key);
    if (current !== undefined) this.put(address, key, current);
    return current;
  }
}
