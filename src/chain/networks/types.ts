/**
 * The shape of a network definition: identity, ETC fork schedule, PoW parameters and genesis.
 * Pure data; the rule code in `src/chain/rules/` interprets it.
 */

export type NetworkName = 'dev' | 'mordor' | 'etc';

/**
 * Activation block per ETC upgrade (ECIP-1066 names), `null` = never. Every upgrade is a block
 * number: ETC never switched to timestamp forks. Order matters: each upgrade assumes the ones
 * listed before it (a test checks the schedules are non-decreasing).
 */
export interface EtcForkSchedule {
  /** EIP-2, 7 (EIP-606). */
  readonly homestead: bigint | null;
  /** ECIP-1015: EIP-150 gas reprice. */
  readonly gasReprice: bigint | null;
  /** ECIP-1010: EIP-155 replay protection, EIP-160 EXP cost; starts the bomb pause on mainnet. */
  readonly dieHard: bigint | null;
  /** ECIP-1017 era rewards (+ ECIP-1039 rounding). */
  readonly gotham: bigint | null;
  /** ECIP-1041: difficulty bomb removed. */
  readonly defuse: bigint | null;
  /** ECIP-1054: Byzantium without EIP-649, plus EIP-161 and EIP-170. */
  readonly atlantis: bigint | null;
  /** ECIP-1056: Constantinople/Petersburg. */
  readonly agharta: bigint | null;
  /** ECIP-1088: Istanbul. */
  readonly phoenix: bigint | null;
  /** ECIP-1099: Etchash (epoch length 60,000). */
  readonly thanos: bigint | null;
  /** ECIP-1103: Berlin. */
  readonly magneto: bigint | null;
  /** ECIP-1104: EIP-3529, EIP-3541 (no EIP-1559/3198). */
  readonly mystique: bigint | null;
  /** ECIP-1109: EIP-3651, 3855, 3860, 6049 (no withdrawals, no PREVRANDAO). */
  readonly spiral: bigint | null;
  /**
   * ECIP-1130 (draft, no block on mordor or etc yet): EIP-1153, 5656, 6780, 2537, 7823, 7883, 7939, 7951.
   * No fee market: type-2 transactions stay refused.
   */
  readonly bastion: bigint | null;
}

export type EtcForkName = keyof EtcForkSchedule;

/** ECIP-1010: from `pauseBlock` the bomb's clock stands still until `continueBlock`, then resumes delayed by the pause length. */
export interface BombPause {
  readonly pauseBlock: bigint;
  readonly continueBlock: bigint;
}

export interface PowParameters {
  /** Floor of the difficulty adjustment (Ethash `MinimumDifficulty`). */
  readonly minimumDifficulty: bigint;
  /** ECIP-1099 activation: Etchash epoch length 60,000 from here (30,000 before). Same as `forks.thanos`. */
  readonly ecip1099Block: bigint | null;
}

/** One account of a genesis allocation. */
export interface GenesisAccount {
  readonly address: Uint8Array;
  readonly balance: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  /** storage slot (32 bytes) → value (unpadded or 32 bytes); zero values are skipped. */
  readonly storage?: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

/** Header fields of a genesis block (15-field pre-London PoW header; the state root is computed from the allocation). */
export interface GenesisHeaderFields {
  readonly parentHash: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly timestamp: bigint;
  readonly extraData: Uint8Array;
  readonly gasLimit: bigint;
  readonly difficulty: bigint;
  readonly mixHash: Uint8Array;
  readonly nonce: Uint8Array;
}

export interface GenesisDefinition {
  readonly header: GenesisHeaderFields;
  /** The allocation. Async because the ETC mainnet one (8,893 accounts) is loaded on demand. */
  readonly loadAlloc: () => Promise<readonly GenesisAccount[]>;
  /** Published genesis hash (mordor, etc); `undefined` for dev, whose hash follows from its definition. */
  readonly expectedHash?: Uint8Array;
  /** Published state root, when known; a cheap consistency check before hashing. */
  readonly expectedStateRoot?: Uint8Array;
}

/**
 * ECIP-1097 checkpointing (withdrawn, never activated on ETC or Mordor): from `activationBlock` on, every header
 * carries a 16th field, and checkpoint blocks signed by the federation outweigh any amount of work.
 */
export interface CheckpointingDefinition {
  /** First block whose header has the 16th field (the genesis never has it). */
  readonly activationBlock: bigint;
  /** The federation: 64-byte uncompressed secp256k1 public keys (without the 0x04 prefix). */
  readonly federationPublicKeys: readonly Uint8Array[];
  /** Valid signatures a checkpoint needs; default floor(n/2) + 1 of the n keys. */
  readonly minSignatures?: number;
}

export interface NetworkDefinition {
  readonly name: NetworkName;
  /** EIP-155 chain id (`eth_chainId`). */
  readonly chainId: bigint;
  /** devp2p STATUS network id. ETC shares 1 with Ethereum; peers are told apart by fork id. */
  readonly networkId: bigint;
  /** What `net_version` answers (the spec keeps the chain id here, not the devp2p network id). */
  readonly netVersion: string;
  readonly forks: EtcForkSchedule;
  /** ECIP-1017 era length: 5,000,000 on mainnet, 2,000,000 on Mordor. */
  readonly eraLength: bigint;
  readonly bombPause: BombPause | null;
  readonly pow: PowParameters;
  readonly genesis: GenesisDefinition;
  /** Block number → hash every peer's chain must contain (core-geth `RequireBlockHashes`). */
  readonly requiredBlockHashes: ReadonlyArray<readonly [bigint, Uint8Array]>;
  /** ECIP-1097 checkpointing; absent = off (standard 15-field headers, fork choice by total difficulty). */
  readonly checkpointing?: CheckpointingDefinition;
}
