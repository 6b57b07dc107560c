/**
 * The plain keys behind the hashed ones of the state trie, on the dev chain: every address and storage slot a block's
 * execution or an edit wrote, noted as it is written. anvil_dumpState walks the trie, whose keys are keccak hashes,
 * and names each account and slot it finds from here (a hash cannot be turned back). Kept for the node's run only:
 * after a restart, what was written before it is named only through the dump's other sources.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';

export class WrittenKeys {
  private readonly addresses = new Set<string>();
  private readonly slots = new Set<string>();

  noteAccount(address: Uint8Array): void {
    this.addresses.add(bytesToHex(address));
  }

  /** `slot` as the state manager gets it: the 32-byte key. */
  noteSlot(address: Uint8Array, slot: Uint8Array): void {
    this.noteAccount(address);
    this.slots.add(bytesToHex(slot));
  }

  /** Every address noted. */
  *allAddresses(): Generator<Uint8Array> {
    for (const hex of this.addresses) yield hexToBytes(hex as `0x${string}`);
  }

  /** Every slot key noted, of any account. */
  *allSlots(): Generator<Uint8Array> {
    for (const hex of this.slots) yield hexToBytes(hex as `0x${string}`);
  }
}
