/**
 * Healing: makes a trie complete under one root by fetching, with GetTrieNodes, exactly the nodes that are
 * missing. A stored node's subtree is complete (chain/state/snap-store.ts), so the walk descends only into missing
 * nodes. A fetched node must hash to the reference its parent holds (else the peer lied); it is kept in memory
 * until its children are stored, then written in the same batch as or after them (bottom-up), so a crash
 * never leaves a stored node above a gap. An account leaf also waits for its storage trie (healed here the same
 * way, by [account, path] paths) and has its code fetched first.
 */
import { BranchMPTNode, decodeMPTNode, ExtensionMPTNode, type LeafMPTNode } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, bytesToUnprefixedHex } from '@ethereumjs/util';
import { keccak256 } from '../../../chain/index.js';
import type { SnapStatePort } from '../../chain-port.js';
import type { EthSession } from '../../eth/session.js';
import { allowedBytes, isEmptyCode, isEmptyStorage } from './fetch.js';
import { BadAnswer, NotHeld, type SnapPeers } from './peers.js';
import type { Ticket } from './rates.js';
import type { SnapCounters } from './record.js';

/** Paths per GetTrieNodes request (geth asks up to 1024; smaller keeps answers under the byte budget). */
const PATHS_PER_REQUEST = 256;

interface Item {
  readonly hash: Uint8Array;
  /** Nibbles from the root of its trie. */
  readonly path: number[];
  /** Set for a storage-trie node: the hashed address of the account that owns the trie. */
  readonly account?: Uint8Array;
  readonly parent?: Item;
  encoded?: Uint8Array;
  waiting: number;
}

export interface HealRoot {
  readonly hash: Uint8Array;
  readonly account?: Uint8Array;
}

export interface HealerOptions {
  readonly state: SnapStatePort;
  readonly peers: SnapPeers;
  readonly counters: SnapCounters;
  /** Fetches and stores these codes (of accounts met while healing) before any node above them is written. */
  readonly fetchCodes: (stateRoot: Uint8Array, hashes: Uint8Array[]) => Promise<void>;
  /** Nodes fetched and not yet written, for the progress view. */
  readonly onPending?: (count: number) => void;
}

export class Healer {
  constructor(private readonly opts: HealerOptions) {}

  /**
   * Returns once every root in `roots` is stored; throws RootGone when no peer serves `stateRoot` any more.
   * `pauseMs` is waited before each request (the healing phase's throttle; a big storage trie heals unthrottled).
   */
  async heal(stateRoot: Uint8Array, roots: readonly HealRoot[], pauseMs = 0): Promise<void> {
    const queue: Item[] = [];
    for (const r of roots) {
      if (!(await this.opts.state.hasNode(r.hash)))
        queue.push({ hash: r.hash, path: [], ...(r.account ? { account: r.account } : {}), waiting: 0 });
    }
    let inFlight = 0;
    let failure: unknown;
    let pending = 0;
    const worker = async (): Promise<void> => {
      while (failure === undefined) {
        if (queue.length === 0) {
          if (inFlight === 0) return;
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        const batch = queue.splice(0, PATHS_PER_REQUEST);
        inFlight++;
        try {
          if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
          const answered = await this.opts.peers.run(
            stateRoot,
            (peer, ticket) => this.request(peer, stateRoot, batch, ticket),
            'trie',
          );
          queue.push(...batch.filter((item) => item.encoded === undefined));
          const writes: (readonly [Uint8Array, Uint8Array])[] = [];
          const codes: Uint8Array[] = [];
          const fresh: Item[] = [];
          for (const item of answered) {
            pending++;
            const children = await this.missingChildren(item, codes);
            item.waiting = children.length;
            fresh.push(...children);
            if (children.length === 0) this.complete(item, writes);
          }
          if (codes.length > 0) await this.opts.fetchCodes(stateRoot, codes);
          pending -= writes.length;
          this.opts.onPending?.(pending);
          if (writes.length > 0) await this.opts.state.write(writes, [], undefined);
          this.opts.counters.healed += writes.length;
          queue.push(...fresh);
        } catch (err) {
          failure ??= err;
        } finally {
          inFlight--;
        }
      }
    };
    const parallel = Math.max(2, this.opts.peers.usable().length * 2);
    await Promise.all(Array.from({ length: parallel }, worker));
    if (failure !== undefined) throw failure;
  }

  /**
   * Asks for the batch's nodes; returns the items answered (their `encoded` set). A peer may leave out nodes it
   * lacks, so answers are matched to the requested hashes in order, as geth does; a node matching none is a lie.
   */
  private async request(
    peer: EthSession,
    stateRoot: Uint8Array,
    batch: readonly Item[],
    ticket: Ticket,
  ): Promise<Item[]> {
    const paths = batch.map((item) =>
      item.account === undefined ? [compactPath(item.path)] : [item.account, compactPath(item.path)],
    );
    const res = await peer.getTrieNodes({ root: stateRoot, paths, bytes: BigInt(ticket.bytes) }, ticket.timeoutMs);
    ticket.answered = { at: performance.now(), bytes: res.nodes.reduce((n, node) => n + node.length, 0) };
    if (res.nodes.length === 0) throw new NotHeld('no trie nodes');
    if (res.nodes.length > batch.length)
      throw new BadAnswer(`sent ${res.nodes.length} trie nodes for ${batch.length} paths`);
    let size = 0;
    let next = 0;
    const matched: { item: Item; node: Uint8Array }[] = [];
    for (const node of res.nodes) {
      size += node.length;
      const hash = bytesToUnprefixedHex(keccak256(node));
      while (next < batch.length && bytesToUnprefixedHex(batch[next]!.hash) !== hash) next++;
      if (next === batch.length)
        throw new BadAnswer(`sent a trie node ${bytesToHex(keccak256(node))} that was not asked for`);
      matched.push({ item: batch[next]!, node });
      next++;
    }
    if (size > allowedBytes(ticket.bytes))
      throw new BadAnswer(`sent trie nodes of ${size} bytes, ${ticket.bytes} were asked`);
    // Only a whole answer that checked out marks anything, so a retry on another peer starts clean.
    for (const { item, node } of matched) item.encoded = node;
    return matched.map((m) => m.item);
  }

  /** The children of a fetched node that are not stored yet (as new items), and codes it needs (into `codes`). */
  private async missingChildren(item: Item, codes: Uint8Array[]): Promise<Item[]> {
    let node: BranchMPTNode | ExtensionMPTNode | LeafMPTNode;
    try {
      node = decodeMPTNode(item.encoded!);
    } catch (err) {
      // The hash matched, so the node is what the trie holds: an undecodable one means our reference was wrong.
      throw new Error(`trie node ${bytesToHex(item.hash)} does not decode: ${(err as Error).message}`);
    }
    const refs: { ref: Uint8Array; path: number[] }[] = [];
    if (node instanceof BranchMPTNode) {
      for (const [i, child] of node.getChildren()) {
        if (child instanceof Uint8Array && child.length === 32) refs.push({ ref: child, path: [...item.path, i] });
      }
    } else if (node instanceof ExtensionMPTNode) {
      const child = node.value();
      if (child instanceof Uint8Array && child.length === 32)
        refs.push({ ref: child, path: [...item.path, ...node.key()] });
    } else if (item.account === undefined) {
      // An account leaf: its storage trie and code belong to its subtree.
      const account = nibblesToBytes([...item.path, ...node.key()]);
      const [, , storageRoot, codeHash] = RLP.decode(node.value()) as Uint8Array[];
      if (!isEmptyCode(codeHash!) && !(await this.opts.state.hasCode(codeHash!))) codes.push(codeHash!);
      if (!isEmptyStorage(storageRoot!) && !(await this.opts.state.hasNode(storageRoot!)))
        return [{ hash: storageRoot!, path: [], account, parent: item, waiting: 0 }];
      return [];
    }
    const out: Item[] = [];
    for (const { ref, path } of refs) {
      if (await this.opts.state.hasNode(ref)) continue;
      out.push({ hash: ref, path, ...(item.account ? { account: item.account } : {}), parent: item, waiting: 0 });
    }
    return out;
  }

  /** Writes an item whose children are all stored, then every ancestor this completes. */
  private complete(item: Item, writes: (readonly [Uint8Array, Uint8Array])[]): void {
    let current: Item | undefined = item;
    while (current !== undefined) {
      writes.push([current.hash, current.encoded!]);
      const parent: Item | undefined = current.parent;
      if (parent === undefined) return;
      parent.waiting--;
      if (parent.waiting > 0) return;
      current = parent;
    }
  }
}

/** Hex-prefix ("compact") encoding of a partial path, as GetTrieNodes takes it (no leaf flag). */
export function compactPath(nibbles: readonly number[]): Uint8Array {
  const odd = nibbles.length % 2;
  const out = new Uint8Array(1 + Math.floor(nibbles.length / 2));
  out[0] = odd ? 0x10 | nibbles[0]! : 0x00;
  for (let i = odd, j = 1; i < nibbles.length; i += 2, j++) out[j] = (nibbles[i]! << 4) | nibbles[i + 1]!;
  return out;
}

function nibblesToBytes(nibbles: readonly number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}
