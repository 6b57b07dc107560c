/**
 * Answers peers' snap/1 requests from the state this node holds: contract code by hash (GetByteCodes) and ranges
 * of the account trie of recent blocks with their boundary proofs (GetAccountRange). We keep no flat snapshot, so
 * account ranges are read by walking the trie itself; that is slower than a snapshot iterator but gives the same
 * answers. Storage ranges and trie-node healing are not served yet: those requests get the empty answer the
 * protocol allows for state we "do not have".
 *
 * Every answer is capped (soft byte limit, at most 2 MiB, and a bounded number of lookups) so that one request
 * cannot make us read the whole database.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import {
  accountBodyToSlim,
  type AccountBodyBytes,
  bytesToHex,
  bytesToUnprefixedHex,
  concatBytes,
  equalsBytes,
  KECCAK256_NULL,
} from '@ethereumjs/util';
import type { ChainPort } from '../chain-port.js';
import { accountTrieOf, trieRange } from '../../chain/state/trie-range.js';
import {
  decodeGetAccountRange,
  decodeGetByteCodes,
  emptySnapResponse,
  encodeAccountRange,
  encodeByteCodes,
  SnapCode,
  type AccountRange,
  type GetAccountRange,
  type GetByteCodes,
  type SnapAccount,
} from './messages.js';

/** Soft limit of one answer's payload, as other clients use (2 MiB); a peer may ask for less, never for more. */
export const SNAP_SOFT_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Code hashes looked up per GetByteCodes request (geth's bound too): later hashes are ignored. */
export const MAX_CODE_LOOKUPS = 1024;
/**
 * How many blocks back from the head we serve account ranges for. snap.md asks callers to stay within 128 blocks
 * of the head, and the state of every stored block is readable (no pruning), so this only bounds the search for a
 * requested root.
 */
export const SNAP_STATE_WINDOW = 128;
/** Accounts read from the trie per walk; the walk pages until the byte limit or the limit hash stops it. */
const ACCOUNTS_PER_PAGE = 256;

export interface SnapServerOptions {
  /** Blocks from the head (the head included) whose state roots are served; default SNAP_STATE_WINDOW. */
  readonly stateWindow?: number;
  /** Accounts read per trie walk; default ACCOUNTS_PER_PAGE (tests use small pages to cross page boundaries). */
  readonly accountsPerPage?: number;
}

export type SnapReply = { code: number; payload: Uint8Array };

export class SnapServer {
  private readonly stateWindow: number;
  private readonly accountsPerPage: number;
  /** State root (hex) → hash of the newest block with that root, for the window below the head it was built at. */
  private recentRoots: { head: string; roots: Promise<Map<string, Uint8Array>> } | undefined;

  constructor(
    private readonly chain: ChainPort,
    opts: SnapServerOptions = {},
  ) {
    this.stateWindow = Math.max(1, opts.stateWindow ?? SNAP_STATE_WINDOW);
    this.accountsPerPage = Math.max(1, opts.accountsPerPage ?? ACCOUNTS_PER_PAGE);
  }

  /** Answers one snap/1 request message; undefined for codes that are not requests. Throws WireDecodeError for malformed input. */
  async serve(code: number, payload: Uint8Array): Promise<SnapReply | undefined> {
    switch (code) {
      case SnapCode.GetAccountRange: {
        const req = decodeGetAccountRange(payload);
        return {
          code: SnapCode.AccountRange,
          payload: encodeAccountRange({ requestId: req.requestId, ...(await this.accountRange(req)) }),
        };
      }
      case SnapCode.GetByteCodes: {
        const req = decodeGetByteCodes(payload);
        return {
          code: SnapCode.ByteCodes,
          payload: encodeByteCodes({ requestId: req.requestId, codes: await this.byteCodes(req) }),
        };
      }
      // Not served yet (issue 11 serves codes and account ranges): the empty answer, which snap.md allows for
      // state a node does not have, keeps the peer's request from timing out.
      case SnapCode.GetStorageRanges:
      case SnapCode.GetTrieNodes:
        return emptySnapResponse(code, payload);
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
    const trie = await this.accountTrieAt(req.root);
    // snap.md: a root we do not have gets an empty reply.
    if (trie === undefined) return { accounts: [], proof: [] };
    const byteLimit = softLimit(req.bytes);
    const accounts: SnapAccount[] = [];
    let bytes = 0;
    let cursor: Uint8Array | undefined = req.origin;
    walk: while (cursor !== undefined) {
      const page = await trieRange(trie, cursor, this.accountsPerPage);
      for (const entry of page.entries) {
        const body = RLP.encode(accountBodyToSlim(RLP.decode(entry.value) as AccountBodyBytes));
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

  /** The account trie of a recent canonical block with this state root, or undefined when we do not serve it. */
  private async accountTrieAt(root: Uint8Array): Promise<MerklePatriciaTrie | undefined> {
    const blockHash = (await this.recentStateRoots()).get(bytesToUnprefixedHex(root));
    if (blockHash === undefined) return undefined;
    const view = await this.chain.stateAt(blockHash);
    return view === undefined ? undefined : accountTrieOf(view.stateManager);
  }

  /** The state roots of the last `stateWindow` canonical blocks; rebuilt when the head moves. */
  private recentStateRoots(): Promise<Map<string, Uint8Array>> {
    const head = this.chain.getHead();
    const headKey = bytesToHex(head.hash());
    if (this.recentRoots?.head !== headKey) {
      const roots = this.collectStateRoots(head.hash());
      this.recentRoots = { head: headKey, roots };
      // A failed read is not kept: the next request tries again.
      roots.catch(() => {
        if (this.recentRoots?.roots === roots) this.recentRoots = undefined;
      });
    }
    return this.recentRoots!.roots;
  }

  private async collectStateRoots(headHash: Uint8Array): Promise<Map<string, Uint8Array>> {
    const roots = new Map<string, Uint8Array>();
    let hash: Uint8Array | undefined = headHash;
    // Walking parent links from the head stays on the canonical chain without reading the canonical index.
    for (let i = 0; i < this.stateWindow && hash !== undefined; i++) {
      const header = await this.chain.getHeader(hash);
      if (header === undefined) break;
      const key = bytesToUnprefixedHex(header.stateRoot);
      // Several blocks may share a root; the newest one is kept (its view is the likeliest to be cached).
      if (!roots.has(key)) roots.set(key, hash);
      hash = header.number === 0n ? undefined : header.parentHash;
    }
    return roots;
  }
}

/** The requested soft limit, capped at ours. */
function softLimit(requested: bigint): number {
  return requested < BigInt(SNAP_SOFT_RESPONSE_BYTES) ? Number(requested) : SNAP_SOFT_RESPONSE_BYTES;
}

/**
 * The trie nodes on the paths to `keys` (already hashed trie keys), each node once. Nodes embedded in their parent
 * (encodings under 32 bytes) are left out, as they travel inside the parent's encoding; the root always goes in.
 */
async function proofNodes(trie: MerklePatriciaTrie, keys: readonly Uint8Array[]): Promise<Uint8Array[]> {
  const seen = new Set<string>();
  const nodes: Uint8Array[] = [];
  for (const key of keys) {
    const { stack } = await trie.findPath(key);
    stack.forEach((node, depth) => {
      const encoded = node.serialize();
      if (depth > 0 && encoded.length < 32) return;
      const id = bytesToUnprefixedHex(encoded);
      if (seen.has(id)) return;
      seen.add(id);
      nodes.push(encoded);
    });
  }
  return nodes;
}
