/**
 * A call VM's journal keyed by flat hex strings.
 *
 * @ethereumjs/evm's journal keys its warm sets and touched accounts by `bytesToUnprefixedHex`, which builds the
 * text two characters at a time (a rope V8 flattens again before hashing it): EIP-2929's warm-slot check of every
 * SLOAD spent most of its time there. `leanJournal` gives one journal the library's methods for those keys, step
 * for step, with the same text made by `hexKey` (Node's encoder: lowercase, no 0x, one flat string), so the sets
 * hold the same strings as before. Only methods that make keys from bytes are replaced, and `addAlwaysWarmAddress`,
 * which runTx calls for every precompile, the sender and the recipient of every transaction: the library strips a
 * 0x prefix after testing the whole text with `String.match` (an array per call); text without the prefix, which
 * that test can never accept, is taken as it is. And `cleanup` (EIP-161's sweep at each transaction's start) makes
 * the touched addresses' bytes with Node's decoder.
 */
import { Address, hexToBytes } from '@ethereumjs/util';
import { hexKey } from '../db/hex-key.js';

// The library's journal members used here (its names; the class types them private).
interface Journal {
  journal: Map<string, Set<string>>;
  alwaysWarmJournal: Map<string, Set<string>>;
  journalDiff: [number, [Set<string>, Map<string, Set<string>>, Set<string>]][];
  accessList?: Map<string, Set<string>>;
  touchAccount(address: string): void;
  touchAddress(address: { bytes: Uint8Array }): void;
  isWarmedAddress(address: Uint8Array): boolean;
  addWarmedAddress(address: Uint8Array): void;
  isWarmedStorage(address: Uint8Array, slot: Uint8Array): boolean;
  addWarmedStorage(address: Uint8Array, slot: Uint8Array): void;
  addAlwaysWarmAddress(addressStr: string, addToAccessList?: boolean): void;
  readonly DEBUG?: boolean;
  readonly common: { gteHardfork(hardfork: string): boolean };
  readonly stateManager: { getAccount(address: Address): Promise<{ isEmpty(): boolean } | undefined> };
  readonly touched: Set<string>;
  preimages?: unknown;
  deleteAccount(address: Address): Promise<void>;
  cleanJournal(): void;
  cleanup(): Promise<void>;
}

const METHODS = [
  'touchAddress',
  'isWarmedAddress',
  'addWarmedAddress',
  'isWarmedStorage',
  'addWarmedStorage',
  'addAlwaysWarmAddress',
  'cleanup',
  'cleanJournal',
  'deleteAccount',
];

/** Replaces `journal`'s key-making methods (journal.ts of @ethereumjs/evm); false when one is not there. */
export function leanJournal(journal: object): boolean {
  const target = journal as Journal & Record<string, unknown>;
  if (!METHODS.every((name) => typeof target[name] === 'function')) return false;
  const libraryAlwaysWarm = target.addAlwaysWarmAddress;
  target.addAlwaysWarmAddress = function (this: Journal, addressStr, addToAccessList = false) {
    // Prefixed (or not a string): the library's own test and errors.
    if (typeof addressStr !== 'string' || addressStr.startsWith('0x')) {
      libraryAlwaysWarm.call(this, addressStr, addToAccessList);
      return;
    }
    if (!this.alwaysWarmJournal.has(addressStr)) this.alwaysWarmJournal.set(addressStr, new Set());
    if (addToAccessList && this.accessList !== undefined && !this.accessList.has(addressStr))
      this.accessList.set(addressStr, new Set());
  };
  target.touchAddress = function (this: Journal, address) {
    this.touchAccount(hexKey(address.bytes));
  };
  target.isWarmedAddress = function (this: Journal, address) {
    const key = hexKey(address);
    return this.journal.has(key) || this.alwaysWarmJournal.has(key);
  };
  target.addWarmedAddress = function (this: Journal, address) {
    addWarmed(this, hexKey(address));
  };
  target.isWarmedStorage = function (this: Journal, address, slot) {
    const key = hexKey(address);
    const slots = this.journal.get(key);
    if (slots?.has(hexKey(slot))) return true;
    return this.alwaysWarmJournal.get(key)?.has(hexKey(slot)) ?? false;
  };
  target.addWarmedStorage = function (this: Journal, address, slot) {
    const key = hexKey(address);
    let slots = this.journal.get(key);
    if (slots === undefined) {
      addWarmed(this, key);
      slots = this.journal.get(key)!;
    }
    const slotKey = hexKey(slot);
    if (!slots.has(slotKey)) {
      slots.add(slotKey);
      const changed = this.journalDiff[this.journalDiff.length - 1]![1][1];
      let changedSlots = changed.get(key);
      if (changedSlots === undefined) changed.set(key, (changedSlots = new Set()));
      changedSlots.add(slotKey);
    }
    // The address is in the access list by now (the library's addWarmedAddress put it there).
    if (this.accessList !== undefined) this.accessList.get(key)!.add(slotKey);
  };
  const libraryCleanup = target.cleanup;
  // EIP-161's sweep of the touched accounts (runTx's first step): the library makes each address from its text with
  // hexToBytes, which checks the text with a regular expression and decodes it a character pair at a time.
  target.cleanup = async function (this: Journal) {
    if (this.DEBUG === true) return libraryCleanup.call(this);
    if (this.common.gteHardfork('spuriousDragon')) {
      for (const addressHex of this.touched) {
        const address = new Address(addressBytes(addressHex));
        const account = await this.stateManager.getAccount(address);
        if (account === undefined || account.isEmpty()) await this.deleteAccount(address);
      }
    }
    this.cleanJournal();
    delete this.accessList;
    delete this.preimages;
  };
  return true;
}

/** A touched address's text as bytes: Node's decoder; text it would not take whole goes to the library's (its error). */
function addressBytes(text: string): Uint8Array {
  const bytes = Buffer.from(text, 'hex');
  return bytes.length * 2 === text.length ? new Uint8Array(bytes) : hexToBytes(`0x${text}`);
}

/** The library's `addWarmedAddress` for a key already made. */
function addWarmed(journal: Journal, key: string): void {
  if (!journal.journal.has(key)) {
    journal.journal.set(key, new Set());
    journal.journalDiff[journal.journalDiff.length - 1]![1][0].add(key);
  }
  if (journal.accessList !== undefined && !journal.accessList.has(key)) journal.accessList.set(key, new Set());
}
