/**
 * GetStorageRanges (snap.md): the storage slots of several accounts of one recent state. Whole storage tries go out
 * one after the other until the soft byte limit; the range that does not fit (or that starts at a requested origin)
 * is the last one and carries the boundary proof, as the spec asks, so a peer can check what it got and continue
 * from there. Slots are read from the flat state when it covers the root, else by walking the storage trie itself,
 * and go out as stored: the RLP of the trimmed value.
 *
 * Bounds, as geth applies them: a range may run 10% past the soft limit before it is cut (rather than split a
 * nearly whole storage for a few bytes), and no new account is opened once the soft limit is reached.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { setLengthLeft } from '@ethereumjs/util';
import { stateRange } from '../../chain/index.js';
import type { GetStorageRanges, StorageRanges, StorageSlot } from './messages.js';
import { nextPageSize } from './page-size.js';
import { proofNodes, softLimit, storageTrieByHash } from './trie-proof.js';

/** How far past the soft limit one storage range may run before it is cut (geth's stateLookupSlack). */
export const STORAGE_LOOKUP_SLACK = 0.1;
/** Accounts looked at per request: accounts without storage cost lookups but no bytes, so they are bounded too. */
export const MAX_STORAGE_ACCOUNTS = 1024;
/** Slots read from a storage trie per walk; the walk pages until a limit stops it. */
export const SLOTS_PER_PAGE = 512;
/** A slot's bytes before any was seen: its 32-byte hash and the RLP of a value of up to 32 bytes. */
const SLOT_ENTRY_GUESS = 48;

const ZERO_HASH = new Uint8Array(32);
const MAX_HASH = new Uint8Array(32).fill(0xff);

/** One account's slots from `origin`, and whether the trie holds more after the last one returned. */
interface AccountSlots {
  readonly slots: StorageSlot[];
  readonly more: boolean;
}

/**
 * The answer to `req` from the account trie of its root (undefined: a root we do not serve, which gets the empty
 * reply). An account missing from the state ends the answer, since what follows could not be lined up with it.
 */
export async function storageRanges(
  accountTrie: MerklePatriciaTrie | undefined,
  req: GetStorageRanges,
  slotsPerPage = SLOTS_PER_PAGE,
): Promise<Omit<StorageRanges, 'requestId'>> {
  const answer: Omit<StorageRanges, 'requestId'> = { slots: [], proof: [] };
  if (accountTrie === undefined) return answer;
  const soft = softLimit(req.bytes);
  const hard = Math.floor(soft * (1 + STORAGE_LOOKUP_SLACK));
  let bytes = 0;
  for (const [index, accountHash] of req.accounts.slice(0, MAX_STORAGE_ACCOUNTS).entries()) {
    if (bytes >= soft) break;
    const trie = await storageTrieByHash(accountTrie, accountHash);
    if (trie === undefined) break;
    // The origin and the limit hash bound the first account's range only.
    const origin = index === 0 && req.origin.length > 0 ? setLengthLeft(req.origin, 32) : ZERO_HASH;
    const limit = index === 0 && req.limit.length > 0 ? setLengthLeft(req.limit, 32) : MAX_HASH;
    const range = await slotsOf(accountTrie, accountHash, trie, origin, limit, hard - bytes, slotsPerPage);
    // Over the hard limit before the first slot: nothing of this account fits, and nothing to prove.
    if (range.slots.length === 0 && range.more) break;
    answer.slots.push(range.slots);
    for (const slot of range.slots) bytes += slot.hash.length + slot.body.length;
    if (range.more || !isZero(origin)) {
      // A partial range ends the answer: its proof covers the origin (present or not) and the last slot sent.
      const last = range.slots.at(-1)?.hash;
      answer.proof = await proofNodes(trie, last === undefined ? [origin] : [origin, last]);
      break;
    }
  }
  return answer;
}

/**
 * Consecutive slots from `origin` up to and including the first at or past `limit`, while they fit in `budget`
 * bytes; `more` when a slot follows the last one returned.
 */
async function slotsOf(
  accountTrie: MerklePatriciaTrie,
  accountHash: Uint8Array,
  trie: MerklePatriciaTrie,
  origin: Uint8Array,
  limit: Uint8Array,
  budget: number,
  slotsPerPage: number,
): Promise<AccountSlots> {
  const slots: StorageSlot[] = [];
  let bytes = 0;
  let cursor: Uint8Array | undefined = origin;
  while (cursor !== undefined) {
    const page = await stateRange(
      accountTrie,
      accountHash,
      trie,
      cursor,
      nextPageSize(slotsPerPage, budget - bytes, { bytes, count: slots.length }, SLOT_ENTRY_GUESS),
      // Storage tries are many and mostly small: none of their nodes go into the node cache (trie-range-now.ts).
      0,
    );
    for (const [i, entry] of page.entries.entries()) {
      if (bytes >= budget) return { slots, more: true };
      slots.push({ hash: entry.key, body: entry.value });
      bytes += entry.key.length + entry.value.length;
      if (Buffer.compare(entry.key, limit) >= 0) {
        return { slots, more: i + 1 < page.entries.length || page.next !== undefined };
      }
    }
    cursor = page.next;
  }
  return { slots, more: false };
}

function isZero(hash: Uint8Array): boolean {
  return hash.every((b) => b === 0);
}
