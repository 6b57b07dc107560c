/**
 * The flat state's diff layers: for each of the last head moves, the values its keys had before it (its reverse
 * diff), in memory. A read at a recent state X answers from the first move after X that touched the key (that
 * move's "before" is the value at X, since nothing between X and it changed the key), else from the table, which
 * holds the head. Dropped on restart: reads of older states then use the trie.
 */
import { hexKey } from '../db/hex-key.js';
import { equalsBytes } from '@ethereumjs/util';

export interface FlatLayer {
  /** The state root before the move. */
  readonly before: Uint8Array;
  /** Flat key (hex, with its tag) → its value before the move (null: absent). */
  readonly values: ReadonlyMap<string, Uint8Array | null>;
  readonly bytes: number;
}

export interface FlatLayerLimits {
  /** How many moves are kept (the node's `state.keep-states`). */
  readonly moves: number;
  /** Bound on the values held by all layers together, in bytes (keys counted at 64 bytes each). */
  readonly bytes: number;
}

export const DEFAULT_FLAT_LAYER_LIMITS: FlatLayerLimits = { moves: 128, bytes: 64 * 1024 * 1024 };

export class FlatLayers {
  /** Oldest first. */
  private layers: FlatLayer[] = [];
  private bytes = 0;

  constructor(private readonly limits: FlatLayerLimits = DEFAULT_FLAT_LAYER_LIMITS) {}

  push(before: Uint8Array, values: Map<string, Uint8Array | null>): void {
    let bytes = 0;
    for (const v of values.values()) bytes += 64 + (v?.length ?? 0);
    this.layers.push({ before, values, bytes });
    this.bytes += bytes;
    while (this.layers.length > this.limits.moves || (this.bytes > this.limits.bytes && this.layers.length > 0)) {
      this.bytes -= this.layers.shift()!.bytes;
    }
  }

  clear(): void {
    this.layers = [];
    this.bytes = 0;
  }

  get size(): number {
    return this.layers.length;
  }

  /** The index of the newest layer starting at state `root` (any one would answer alike: same root, same state). */
  indexOf(root: Uint8Array): number {
    for (let i = this.layers.length - 1; i >= 0; i--) if (equalsBytes(this.layers[i].before, root)) return i;
    return -1;
  }

  /** The value of flat key `key` at the state where layer `from` starts; undefined: the table's. */
  lookup(from: number, key: Uint8Array): Uint8Array | null | undefined {
    const hex = hexKey(key);
    for (let i = from; i < this.layers.length; i++) {
      const v = this.layers[i].values.get(hex);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  /** The values layers `from`… put back over the table, for a range read (first hit per key wins). */
  overrides(from: number): Map<string, Uint8Array | null> {
    const out = new Map<string, Uint8Array | null>();
    for (let i = from; i < this.layers.length; i++)
      for (const [k, v] of this.layers[i].values) if (!out.has(k)) out.set(k, v);
    return out;
  }
}
