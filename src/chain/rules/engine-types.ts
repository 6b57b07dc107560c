/**
 * The seams between the chain engine and the modules it is given: network definition, chain rules
 * (difficulty, rewards, EVM rules per block) and seal verification. The engine codes against these
 * small interfaces so that rules and PoW live in their own modules (src/chain/rules, src/chain/pow).
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { CheckpointingDefinition } from '../networks/types.js';

/** One genesis account: balance plus optional code, storage (32-byte key → value) and nonce. */
export interface GenesisAccount {
  address: Uint8Array;
  balance: bigint;
  nonce?: bigint;
  code?: Uint8Array;
  storage?: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

/** What the engine needs to know about a network to create or recognise its genesis block. */
export interface EngineNetwork {
  readonly name: string;
  readonly chainId: bigint;
  /** Genesis header fields; `stateRoot` may be omitted and is then computed from `alloc`. */
  readonly genesisHeader: {
    readonly difficulty: bigint;
    readonly gasLimit: bigint;
    readonly timestamp: bigint;
    readonly extraData: Uint8Array;
    readonly nonce: Uint8Array;
    readonly mixHash: Uint8Array;
    readonly coinbase: Uint8Array;
    readonly parentHash?: Uint8Array;
    readonly stateRoot?: Uint8Array;
  };
  /** The allocation; only loaded when the genesis state must be built (first open, or no declared state root). */
  loadAlloc(): Promise<readonly GenesisAccount[]>;
  /** Published genesis hash: the built genesis must match it. */
  readonly expectedGenesisHash?: Uint8Array;
  /** ECIP-1097 checkpointing (16-field headers, checkpoint blocks, weight by latest checkpoint); absent = off. */
  readonly checkpointing?: CheckpointingDefinition;
}

/** A reward credited after a block's transactions: miner and uncle rewards (ECIP-1017 on ETC). */
export interface RewardCredit {
  readonly address: Uint8Array;
  readonly amount: bigint;
}

/** Consensus rules outside the EVM. Implemented by src/chain/rules for ETC; tests may supply simpler rules. */
export interface ChainRules {
  /** The Common (EVM rules, customCrypto) for block `number`; the engine shares it across a block's objects. */
  commonAt(number: bigint): Common;
  /** The Common for decoding a block's transactions, when it differs (ETC Die Hard: EIP-155 before Spurious Dragon). */
  txCommonAt?(number: bigint): Common;
  /** Throws (or returns a reason) if `header` is not a valid child of `parent` (difficulty, gas limit, time, extra data). */
  validateHeader(parent: BlockHeader, header: BlockHeader): void | string | Promise<void | string>;
  /** Difficulty of a child of `parent` sealed at `timestamp` (the miner's assembly path). */
  difficulty(parent: BlockHeader, timestamp: bigint): bigint;
  /** Balances credited after the block's transactions (block reward, uncle rewards, nephew bonus). */
  rewards(header: BlockHeader, uncles: readonly BlockHeader[]): RewardCredit[];
}

/** Checks a header's proof of work. `true` = valid; a string = why not. */
export interface SealVerifier {
  verify(header: BlockHeader): Promise<true | string>;
  /**
   * Checks many headers at once (on worker threads where the verifier has them); one result per header, in order.
   * Optional: without it, headers are checked one by one as they are imported.
   */
  verifyMany?(headers: readonly BlockHeader[]): Promise<(true | string)[]>;
}
