/**
 * Which states snap/1 serves: the state roots of the last blocks of the canonical chain (snap.md asks callers to
 * stay within 128 blocks of the head), each mapped to a block whose state view opens that root. The map is
 * rebuilt when the head moves, from parent links, so it never reads the canonical index.
 */
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util';
import { StateNotHeldError, StateNotKeptError, accountTrieOf } from '../../chain/index.js';
import type { ChainPort } from '../chain-port.js';

/**
 * How many blocks back from the head we serve. The state of every stored block is readable (no pruning), so this
 * only bounds the search for a requested root and keeps us from serving states peers should not ask for.
 */
export const SNAP_STATE_WINDOW = 128;

export class RecentStateRoots {
  /** State root (hex) → hash of the newest block with that root, for the window below the head it was built at. */
  private recent: { head: string; roots: Promise<Map<string, Uint8Array>> } | undefined;

  constructor(
    private readonly chain: ChainPort,
    private readonly window: number = SNAP_STATE_WINDOW,
  ) {}

  /** The account trie of a recent canonical block with this state root, or undefined when we do not serve it. */
  async accountTrie(root: Uint8Array): Promise<MerklePatriciaTrie | undefined> {
    const blockHash = (await this.roots()).get(bytesToUnprefixedHex(root));
    if (blockHash === undefined) return undefined;
    try {
      const view = await this.chain.stateAt(blockHash);
      return view === undefined ? undefined : accountTrieOf(view.stateManager);
    } catch (err) {
      // Right after a snap sync the window reaches below the base, and a full node's window may be shorter than
      // snap's: those states are not ours to serve.
      if (err instanceof StateNotHeldError || err instanceof StateNotKeptError) return undefined;
      throw err;
    }
  }

  private roots(): Promise<Map<string, Uint8Array>> {
    const head = this.chain.getHead();
    const headKey = bytesToHex(head.hash());
    if (this.recent?.head !== headKey) {
      const roots = this.collect(head.hash());
      this.recent = { head: headKey, roots };
      // A failed read is not kept: the next request tries again.
      roots.catch(() => {
        if (this.recent?.roots === roots) this.recent = undefined;
      });
    }
    return this.recent!.roots;
  }

  private async collect(headHash: Uint8Array): Promise<Map<string, Uint8Array>> {
    const roots = new Map<string, Uint8Array>();
    let hash: Uint8Array | undefined = headHash;
    for (let i = 0; i < this.window && hash !== undefined; i++) {
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
