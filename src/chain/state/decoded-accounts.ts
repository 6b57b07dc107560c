/**
 * The account cache of an opened state holding accounts decoded, encoded only when the flush writes them.
 *
 * Why: @ethereumjs/statemanager's account cache keeps each account as RLP, so every `getAccount` of the EVM decodes
 * one and every `putAccount` encodes one (a trace of a small transaction spent ~20 % of its CPU there). Here the
 * cache's `put` keeps a private copy of the account in an element whose `accountRLP` is encoded on first read (the
 * library's flush and anything else that reads elements see the same bytes as before), and `decodedAccount` hands
 * out copies. Elements are never changed once made, so the cache's checkpoint diffs (which keep elements by
 * identity) revert exactly as before. A copy is what a decode of the encoding would give: the four encoded fields,
 * with the defaults a decode gives the others.
 */
import { Account } from '@ethereumjs/util';
import { hexKey } from '../db/hex-key.js';

class DecodedElement {
  private rlp: Uint8Array | undefined;
  /** `account`: a private copy, never handed out; undefined for an absent account (as the library's elements). */
  constructor(readonly account: Account | undefined) {}

  get accountRLP(): Uint8Array | undefined {
    if (this.account === undefined) return undefined;
    if (this.rlp === undefined) this.rlp = this.account.serialize();
    return this.rlp;
  }
}

/** A decode's account: the encoded fields of `account`, a decode's defaults for code size and version. */
function copyOf(account: Account): Account {
  const copy = Object.create(Account.prototype) as Account & Record<string, unknown>;
  copy._nonce = account.nonce;
  copy._balance = account.balance;
  copy._storageRoot = account.storageRoot;
  copy._codeHash = account.codeHash;
  copy._codeSize = 0;
  copy._version = 0;
  return copy;
}

/** The parts of the library's AccountCache its `put` uses (see its cache/account.js). */
interface AccountCacheInternals {
  put(address: { bytes: Uint8Array }, account: Account | undefined, couldBePartialAccount?: boolean): void;
  get(address: { bytes: Uint8Array }): { accountRLP: Uint8Array | undefined } | undefined;
  _saveCachePreState(key: string): void;
  _orderedMapCache?: { setElement(key: string, elem: unknown): void; getElementByKey(key: string): unknown };
  _lruCache?: { set(key: string, elem: unknown): void; get(key: string): unknown };
  _stats: { writes: number; reads: number; hits: number };
}

/** Makes `cache` (an AccountCache of @ethereumjs/statemanager) keep accounts decoded from now on. */
export function keepAccountsDecoded(cache: unknown): void {
  const c = cache as AccountCacheInternals;
  const put = c.put.bind(c);
  // The library's put with the element made here (same pre-state note, same map, same count).
  c.put = (address, account, couldBePartialAccount = false) => {
    // Partial accounts (stateless execution) keep the library's encoding.
    if (couldBePartialAccount) return put(address, account, true);
    const key = hexKey(address.bytes);
    c._saveCachePreState(key);
    const elem = new DecodedElement(account === undefined ? undefined : copyOf(account));
    if (c._lruCache !== undefined) c._lruCache.set(key, elem);
    else c._orderedMapCache!.setElement(key, elem);
    c._stats.writes += 1;
  };
  // The library's get, keyed by Node's hex encoder (see db/hex-key.ts).
  c.get = (address) => {
    const key = hexKey(address.bytes);
    const elem = (c._lruCache !== undefined ? c._lruCache.get(key) : c._orderedMapCache!.getElementByKey(key)) as
      | { accountRLP: Uint8Array | undefined }
      | undefined;
    c._stats.reads += 1;
    if (elem !== undefined) c._stats.hits += 1;
    return elem;
  };
}

/**
 * A copy of the account `elem` (an element of a cache given to `keepAccountsDecoded`) holds, null when it holds
 * the account as absent; undefined when `elem` is not one of those (missing, or put as the library does).
 */
export function decodedAccount(elem: unknown): Account | null | undefined {
  if (!(elem instanceof DecodedElement)) return undefined;
  return elem.account === undefined ? null : copyOf(elem.account);
}
