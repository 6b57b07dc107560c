/**
 * The chain's seal checker (exec/seal-checker.ts), wired to what it does on a mismatch: the head goes back to the
 * block before the one that differed (if that block is still canonical; later blocks on it go with it, stored as a
 * side chain as after any rewind), the pool gets their transactions back through the `reorg` event, and the chain
 * announces `sealCheckFailed` (the engine logs it and stops its miner).
 */
import type { Block } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import type { ChainEmitter } from '../view/chain-events.js';
import type { ChainView } from '../view/chain-view.js';
import { SealChecker, type SealMismatch } from '../exec/seal-checker.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import type { OpenOptions } from './open-options.js';

/**
 * Trie nodes (and code) the check worker keeps between blocks. A block's parent state is mostly the nodes the worker
 * wrote for the block before, so recent blocks' worth suffice; at 200,000 the node's resident memory under
 * bench/exec-load.ts (24,000 blocks in 240 s) rose ~150 MiB above the same run without seal checks.
 */
const WORKER_NODE_CACHE = 50_000;

export interface SealCheckParts {
  readonly opts: OpenOptions;
  readonly nodes: TrieNodeStore;
  readonly view: ChainView;
  readonly events: ChainEmitter;
  readonly rewindTo: (number: bigint) => Promise<Block>;
}

export function openSealChecks({ opts, nodes, view, events, rewindTo }: SealCheckParts): SealChecker | undefined {
  if (opts.sealChecks === undefined || opts.fork !== undefined) return undefined;
  const { network } = opts.sealChecks;
  const onMismatch = async ({ block, differences }: SealMismatch): Promise<void> => {
    let rewoundTo: Block | undefined;
    try {
      if (await view.isCanonical(block.hash())) rewoundTo = await rewindTo(block.header.number - 1n);
    } catch (err) {
      opts.sealChecks?.onError?.(`rewinding before block ${block.header.number} failed: ${(err as Error).message}`);
    }
    events.emit('sealCheckFailed', { block, differences, rewoundTo });
  };
  return new SealChecker({
    setup: {
      network,
      checkpointing: network.checkpointing !== undefined,
      nodeCache: WORKER_NODE_CACHE,
    },
    nodes,
    lag: Math.max(1, opts.sealChecks.lag),
    onMismatch: (m) => void onMismatch(m),
    onError: (block, message) =>
      opts.sealChecks?.onError?.(
        `block ${block.header.number} (${bytesToHex(block.hash())}) could not be checked against @ethereumjs/vm: ${message}`,
      ),
  });
}
