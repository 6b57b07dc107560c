/**
 * Messages between the seal checker (seal-checker.ts, main thread) and its worker (seal-check-worker.ts). The worker
 * re-executes a block this node sealed with @ethereumjs/vm's own code and says what, if anything, differs from what
 * the block and its receipts claim. Everything travels by structured clone; nothing is shared.
 */
import type { NetworkDefinition } from '../networks/types.js';
import type { RewardCredit } from '../rules/engine-types.js';

export interface SealCheckSetup {
  readonly network: NetworkDefinition;
  /** ECIP-1097: 16-field headers decode as checkpoint headers. */
  readonly checkpointing: boolean;
  /** Trie nodes (and code) the worker keeps between blocks: what it wrote and what it was sent. */
  readonly nodeCache: number;
}

/** The receipt fields the sealed block claims, as this node's assembly computed them. */
export interface SealedReceipt {
  readonly status?: number;
  readonly stateRoot?: Uint8Array;
  readonly cumulativeGasUsed: bigint;
  readonly gasUsed: bigint;
  readonly logs: readonly {
    readonly address: Uint8Array;
    readonly topics: readonly Uint8Array[];
    readonly data: Uint8Array;
  }[];
  readonly logsBloom: Uint8Array;
  readonly contractAddress?: Uint8Array;
}

/** One sealed block to re-execute on its parent's state. */
export interface SealCheckJob {
  readonly id: number;
  /** The header's RLP encoding (the stored record's bytes: one buffer to post, not fifteen fields). */
  readonly header: Uint8Array;
  readonly txs: readonly Uint8Array[];
  /** Impersonated transactions (anvil_impersonateAccount): their index and the sender their placeholder signature stands for. */
  readonly impersonated: readonly (readonly [index: number, sender: Uint8Array])[];
  readonly parentRoot: Uint8Array;
  /** The chain rules' rewards for the block (ETC's eras and uncles are not @ethereumjs/vm's to know). */
  readonly rewards: readonly RewardCredit[];
  readonly receipts: readonly SealedReceipt[];
}

/** Trie nodes and code by their hex key (`n`), or the hash of the checked block's ancestor at a height (`h`). */
export type NodeAskItem = readonly ['n', string] | readonly ['h', number, bigint];

export interface NodeAsk {
  readonly kind: 'reads';
  readonly id: number;
  readonly items: readonly NodeAskItem[];
}

export interface NodeAnswer {
  readonly kind: 'reads';
  readonly id: number;
  /** In the order asked; null = not held. */
  readonly values: readonly (Uint8Array | null)[];
  readonly error?: string;
}

/** One thing the reference computed otherwise: which transaction (if one), which field, both values as text. */
export interface SealDifference {
  readonly tx?: number;
  readonly field: string;
  readonly sealed: string;
  readonly reference: string;
}

export interface SealVerdict {
  readonly id: number;
  readonly differences: readonly SealDifference[];
  /** The check itself could not run (a missing node, a decoding failure): no verdict on the block. */
  readonly error?: string;
}

/** Consecutive jobs posted as one message: fewer wake-ups of either thread, and the worker keeps its state between them. */
export interface SealCheckRun {
  readonly kind: 'run';
  readonly jobs: readonly SealCheckJob[];
}

/** The verdicts of one run, in its order. */
export interface SealVerdicts {
  readonly kind: 'verdicts';
  readonly verdicts: readonly SealVerdict[];
}

export interface SealWorkerReady {
  readonly kind: 'ready';
}

export type ToSealWorker = SealCheckRun | NodeAnswer;
export type FromSealWorker = SealVerdicts | NodeAsk | SealWorkerReady;
