/**
 * A state manager's reads through the flat state (flat-reader.ts): an account or a slot in one read instead of a
 * trie walk, when the flat state covers the root the state manager's account trie is at.
 *
 * A slot may come from the flat state only when the storage trie the state manager would read has the storage
 * root the covered state holds for that account: storage tries are content-addressed, so equal roots mean equal
 * slots. (A storage trie written in this state manager, or cleared, has another root and is walked.) That root is
 * remembered per account for the covered root, as every slot read of a contract asks for it.
 *
 * Nothing read here enters the trie's lookup memo or node cache: the flat state's own layers and LevelDB's block
 * cache hold it, and the state manager's caches (when it has any) keep what the EVM reads, as they do for trie reads.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import type { FlatReader } from './flat-reader.js';

/** Accounts whose storage roots are remembered per covered root; past it they are forgotten and read again. */
const STORAGE_ROOTS = 4096;

export class FlatLookup {
  /** The covered root the remembered storage roots belong to (hex). */
  private rootKey = '';
  /** Hashed address hex → the account's storage root in that state (null: no account). */
  private readonly storageRoots = new Map<string, Uint8Array | null>();

  constructor(private readonly source: { readonly flat: FlatReader }) {}

  covers(root: Uint8Array): boolean {
    return this.source.flat.covers(root);
  }

  /** The account leaf under `hashed` (keccak of the address) at `root`: undefined = cannot answer, null = absent. */
  account(root: Uint8Array, hashed: Uint8Array): Uint8Array | null | undefined {
    const flat = this.source.flat;
    if (!flat.covers(root)) return undefined;
    return flat.account(root, hashed);
  }

  /**
   * The slot's leaf value (RLP) for the storage trie at `storageRoot` of the account under `hashed`, read at `root`:
   * undefined when the flat state cannot answer (not covered, or that state's account has another storage root),
   * null when absent.
   */
  slot(root: Uint8Array, hashed: Uint8Array, storageRoot: Uint8Array, key: Uint8Array): Uint8Array | null | undefined {
    if (equalsBytes(storageRoot, KECCAK256_RLP)) return null;
    const flat = this.source.flat;
    if (!flat.covers(root)) return undefined;
    const held = this.storageRootAt(flat, root, hashed);
    if (held === undefined || held === null || !equalsBytes(held, storageRoot)) return undefined;
    return flat.storage(root, hashed, keccak256(key));
  }

  private storageRootAt(flat: FlatReader, root: Uint8Array, hashed: Uint8Array): Uint8Array | null | undefined {
    const rootKey = bytesToUnprefixedHex(root);
    if (rootKey !== this.rootKey || this.storageRoots.size >= STORAGE_ROOTS) {
      this.rootKey = rootKey;
      this.storageRoots.clear();
    }
    const key = bytesToUnprefixedHex(hashed);
    const known = this.storageRoots.get(key);
    if (known !== undefined) return known;
    const leaf = flat.account(root, hashed);
    if (leaf === undefined) return undefined;
    const storageRoot = leaf === null ? null : ((RLP.decode(leaf) as Uint8Array[])[2] ?? null);
    this.storageRoots.set(key, storageRoot);
    return storageRoot;
  }
}
