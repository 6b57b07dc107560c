/**
 * Answers peers' snap/1 requests from the state of the last blocks (snap/state-roots.ts): account ranges and
 * contract code here, storage ranges in snap/serve-storage.ts, trie nodes by path in snap/serve-trie-nodes.ts.
 * Ranges are read from the flat state when it covers the requested root (chain/state/flat-reader.ts), else by
 * walking the tries themselves, with the same answers; proofs always come from the trie. A root we do not serve
 * gets the empty answer snap.md prescribes.
 *
 * Every answer is capped (soft byte limit, at most 2 MiB or `network.snap.response-bytes`, and a bounded number of
 * lookups) so that one request cannot make us read the whole database, and each peer has a budget of requests in
 * flight (serve-budget.ts, shared with eth).
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { accountBodyToSlim, type AccountBodyBytes, concatBytes, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import type { ChainPort } from '../chain-port.js';
import { encodeRlp, decodeRlpList, accountTrieOf, stateRange } from '../../chain/index.js';
import {
  decodeGetAccountRange,
  decodeGetByteCodes,
  decodeGetStorageRanges,
  decodeGetTrieNodes,
  encodeAccountRange,
  encodeByteCodes,
  encodeStorageRanges,
  encodeTrieNodes,
  SnapCode,
  type AccountRange,
  type GetAccountRange,
  type GetByteCodes,
  type SnapAccount,
} from './messages.js';
import { nextPageSize } from './page-size.js';
import { PerPeerBudget, ServeCancelled, type ServedPeer } from '../serve-budget.js';
import { SLOTS_PER_PAGE, storageRanges } from './serve-storage.js';
import { trieNodes } from './serve-trie-nodes.js';
import { RecentStateRoots, SNAP_STATE_WINDOW } from './state-roots.js';
import { MAX_TIMEOUT_MS } from './sync/rates.js';
import { proofNodes, SNAP_SOFT_RESPONSE_BYTES, softLimit } from './trie-proof.js';

export { SNAP_STATE_WINDOW } from './state-roots.js';
export { SNAP_SOFT_RESPONSE_BYTES } from './trie-proof.js';

/** Code hashes looked up per GetByteCodes request (geth's bound too): later hashes are ignored. */
export const MAX_CODE_LOOKUPS = 1024;
/** Accounts read from the trie per walk; the walk pages until the byte limit or the limit hash stops it. */
const ACCOUNTS_PER_PAGE = 1024;
/** An answered account's bytes before any was seen: its 32-byte hash and a slim body of a small balance. */
const ACCOUNT_ENTRY_GUESS = 40;

export interface SnapServerOptions {
  /** Blocks from the head (the head included) whose state roots are served; default SNAP_STATE_WINDOW. */
  readonly stateWindow?: number;
  /** Accounts read per trie walk; default ACCOUNTS_PER_PAGE (tests use small pages to cross page boundaries). */
  readonly accountsPerPage?: number;
  /** Storage slots read per trie walk; default SLOTS_PER_PAGE. */
  readonly slotsPerPage?: number;
  /** Requests of one peer answered at a time (`network.snap.requests-per-peer`); default 2. */
  readonly requestsPerPeer?: number;
  /** The most bytes of one answer (`network.snap.response-bytes`); default and most SNAP_SOFT_RESPONSE_BYTES. */
  readonly responseBytes?: number;
  /** A request that waited longer for its turn is dropped unanswered; default STALE_REQUEST_MS. */
  readonly staleAfterMs?: number;
}

export type SnapReply = { code: number; payload: Uint8Array };

/** The asking peer as the server sees it: whether its link is gone. */
export type SnapAsker = ServedPeer;

/**
 * Snap requests of one peer that may wait; more and the peer is disconnected. Our sync has at most 8 requests out
 * to a peer, other clients' syncers a few; a peer with more than this waiting asks faster than it reads.
 */
export const SNAP_QUEUED_PER_PEER = 64;

/**
 * A request that waited this long for its turn is skipped: its asker has given up on it (our sync's longest
 * timeout, snap/sync/rates.ts), and answering would only delay the requests it asks again.
 */
export const STALE_REQUEST_MS = MAX_TIMEOUT_MS;

export class SnapServer {
  private readonly accountsPerPage: number;
  private readonly slotsPerPage: number;
  private readonly roots: RecentStateRoots;
  readonly budget: PerPeerBudget;
  private readonly staleAfterMs: number;
  private readonly responseBytes: bigint;

  constructor(
    private readonly chain: ChainPort,
    opts: SnapServerOptions = {},
  ) {
    this.roots = new RecentStateRoots(chain, Math.max(1, opts.stateWindow ?? SNAP_STATE_WINDOW));
    this.accountsPerPage = Math.max(1, opts.accountsPerPage ?? ACCOUNTS_PER_PAGE);
    this.slotsPerPage = Math.max(1, opts.slotsPerPage ?? SLOTS_PER_PAGE);
    this.budget = new PerPeerBudget({
      ...(opts.requestsPerPeer !== undefined ? { inFlight: opts.requestsPerPeer } : {}),
      maxQueued: SNAP_QUEUED_PER_PEER,
    });
    this.staleAfterMs = opts.staleAfterMs ?? STALE_REQUEST_MS;
    this.responseBytes = BigInt(Math.max(1, Math.min(opts.responseBytes ?? Infinity, SNAP_SOFT_RESPONSE_BYTES)));
  }

  /** The request as if its peer had asked for no more than our answer limit (the readers' own cap is 2 MiB). */
  private capped<R extends { readonly bytes: bigint }>(req: R): R {
    return req.bytes > this.responseBytes ? { ...req, bytes: this.responseBytes } : req;
  }

  /**
   * Answers one snap/1 request message; undefined for codes that are not requests. Throws WireDecodeError for
   * malformed input. With `peer` (its session), the request waits for that peer's budget, and is dropped
   * unanswered (undefined) when the peer left or gave up on it meanwhile.
   */
  serve(code: number, payload: Uint8Array, peer?: SnapAsker): Promise<SnapReply | undefined> {
    if (peer === undefined) return this.answer(code, payload);
    const queuedAt = performance.now();
    const answered = this.budget.run(peer, () => {
      if (performance.now() - queuedAt > this.staleAfterMs) {
        this.skipped++;
        return Promise.resolve(undefined);
      }
      return this.answer(code, payload);
    });
    // A peer that left (before its turn or meanwhile) gets nothing: the request is only counted.
    return answered.catch((err: unknown) => {
      if (!(err instanceof ServeCancelled)) throw err;
      this.skipped++;
      return undefined;
    });
  }

  /** Requests dropped unanswered because their asker left or waited past its timeout. */
  skipped = 0;

  private async answer(code: number, payload: Uint8Array): Promise<SnapReply | undefined> {
    switch (code) {
      case SnapCode.GetAccountRange: {
        const req = this.capped(decodeGetAccountRange(payload));
        return {
          code: SnapCode.AccountRange,
          payload: encodeAccountRange({ requestId: req.requestId, ...(await this.accountRange(req)) }),
        };
      }
      case SnapCode.GetStorageRanges: {
        const req = this.capped(decodeGetStorageRanges(payload));
        const answer = await storageRanges(await this.roots.accountTrie(req.root), req, this.slotsPerPage);
        return { code: SnapCode.StorageRanges, payload: encodeStorageRanges({ requestId: req.requestId, ...answer }) };
      }
      case SnapCode.GetByteCodes: {
        const req = this.capped(decodeGetByteCodes(payload));
        return {
          code: SnapCode.ByteCodes,
          payload: encodeByteCodes({ requestId: req.requestId, codes: await this.byteCodes(req) }),
        };
      }
      case SnapCode.GetTrieNodes: {
        const req = this.capped(decodeGetTrieNodes(payload));
        const nodes = await trieNodes(await this.roots.accountTrie(req.root), req);
        return { code: SnapCode.TrieNodes, payload: encodeTrieNodes({ requestId: req.requestId, nodes }) };
      }
      default:
        return undefined;
    }
  }

  // ---------------------------------------------------------------- GetByteCodes

  /** The codes we hold, in request order, unknown hashes skipped, until the soft byte limit. */
  private async byteCodes(req: GetByteCodes): Promise<Uint8Array[]> {
    const limit = softLimit(req.bytes);
    const db = await this.codeDatabase();
    const codes: Uint8Array[] = [];
    let bytes = 0;
    for (const hash of req.hashes.slice(0, MAX_CODE_LOOKUPS)) {
      // The empty code is never stored, but every client can answer it.
      const code = equalsBytes(hash, KECCAK256_NULL)
        ? new Uint8Array(0)
        : await db.get(concatBytes(CODEHASH_PREFIX, hash));
      if (code === undefined) continue;
      codes.push(code);
      bytes += code.length;
      if (bytes >= limit) break;
    }
    return codes;
  }

  /**
   * Where the state manager keeps contract code: the trie's node database, under 'c' + code hash. Code is
   * content-addressed and never deleted, so the head's state reaches the code of every state we hold.
   */
  private async codeDatabase(): Promise<ReturnType<MerklePatriciaTrie['database']>> {
    const view = await this.chain.stateAt('latest');
    if (view === undefined) throw new Error('the chain has no readable head state');
    return accountTrieOf(view.stateManager).database();
  }

  // ---------------------------------------------------------------- GetAccountRange

  /**
   * Consecutive accounts from `origin`, up to and including the first one at or past `limit` (as geth does), and
   * until the soft byte limit; at least one account when any exists at or after `origin`. The proof holds the
   * trie paths to `origin` (even if no account sits there) and to the last returned account.
   */
  private async accountRange(req: GetAccountRange): Promise<Omit<AccountRange, 'requestId'>> {
    const trie = await this.roots.accountTrie(req.root);
    // snap.md: a root we do not have gets an empty reply.
    if (trie === undefined) return { accounts: [], proof: [] };
    const byteLimit = softLimit(req.bytes);
    const accounts: SnapAccount[] = [];
    let bytes = 0;
    let cursor: Uint8Array | undefined = req.origin;
    walk: while (cursor !== undefined) {
      const pageSize = nextPageSize(
        this.accountsPerPage,
        byteLimit - bytes,
        { bytes, count: accounts.length },
        ACCOUNT_ENTRY_GUESS,
      );
      const page = await stateRange(trie, undefined, trie, cursor, pageSize);
      for (const entry of page.entries) {
        const body = encodeRlp(accountBodyToSlim(decodeRlpList(entry.value) as AccountBodyBytes));
        accounts.push({ hash: entry.key, body });
        bytes += entry.key.length + body.length;
        if (Buffer.compare(entry.key, req.limit) >= 0 || bytes >= byteLimit) break walk;
      }
      cursor = page.next;
    }
    // Proofs are sent even when the answer covers the whole trie (snap.md says they may be left out then): geth's
    // syncer always verifies account ranges against edge proofs and would reject an answer without them.
    const last = accounts.at(-1)?.hash;
    const proof = await proofNodes(trie, last === undefined ? [req.origin] : [req.origin, last]);
    return { accounts, proof };
  }
}
