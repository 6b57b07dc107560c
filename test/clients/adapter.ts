/**
 * The small interface the client compatibility scenarios are written against. Each library (ethers v6, viem,
 * web3.js v4) implements it in its own idiomatic way in `adapters/`; the scenarios (scenarios.ts) never see a
 * library type, so one scenario list runs unchanged under all three.
 *
 * Values come back normalised (bigint amounts, lower-case-insensitive addresses compared by the scenarios) so
 * that a scenario asserts what the node did, not how a library spells it.
 */

/** Where the session sends from: a key the library holds and signs with, or an account the node holds (eth_sendTransaction). */
export type Sender = 'local' | 'node';

export interface BlockSummary {
  readonly number: bigint;
  readonly hash: string;
  readonly parentHash: string;
  readonly timestamp: bigint;
  readonly miner: string;
  /** Transaction hashes. */
  readonly transactions: readonly string[];
}

/** One decoded `Incremented(address indexed by, uint256 amount, uint256 newCount)` event of the Counter fixture. */
export interface IncrementedEvent {
  readonly by: string;
  readonly amount: bigint;
  readonly newCount: bigint;
  readonly address: string;
  readonly blockNumber: bigint;
  readonly transactionHash: string;
}

export interface ReceiptSummary {
  readonly status: 'success' | 'reverted';
  readonly transactionHash: string;
  readonly blockNumber: bigint;
  readonly from: string;
  readonly gasUsed: bigint;
  /** Set for a contract creation. */
  readonly contractAddress?: string;
  /** The receipt's Counter events, decoded by the library. */
  readonly events: readonly IncrementedEvent[];
}

export type Unsubscribe = () => Promise<void>;

export interface ClientSession {
  /** The chain id, asked over HTTP or over WebSocket. */
  chainId(over: 'http' | 'ws'): Promise<bigint>;
  blockNumber(): Promise<bigint>;
  getBalance(address: string, blockNumber?: bigint): Promise<bigint>;
  getBlock(ref: bigint | 'latest'): Promise<BlockSummary>;

  /** Deploys the Counter fixture (constructor argument `initial`) and waits for its receipt. */
  deployCounter(initial: bigint, from: Sender): Promise<{ readonly address: string; readonly receipt: ReceiptSummary }>;
  /** `count()` through eth_call, at the head or at a past block. */
  readCount(counter: string, blockNumber?: bigint): Promise<bigint>;
  /** `increment(amount)` as a transaction, waiting for the receipt. */
  increment(counter: string, amount: bigint, from: Sender): Promise<ReceiptSummary>;
  /** A plain value transfer, waiting for the receipt. */
  transfer(to: string, value: bigint, from: Sender): Promise<ReceiptSummary>;
  /** Past `Incremented` events of `counter` in a block range (eth_getLogs). */
  pastIncrements(counter: string, fromBlock: bigint, toBlock: bigint): Promise<IncrementedEvent[]>;
  estimateIncrementGas(counter: string, amount: bigint, from: Sender): Promise<bigint>;

  /**
   * The revert reason the library reports for `increment(amount)` when it fails: through eth_call, through
   * eth_estimateGas, or when trying to send it. Rejects when the library reports no reason.
   */
  revertReason(counter: string, amount: bigint, via: 'call' | 'estimateGas' | 'send'): Promise<string>;

  /** EIP-191 personal message: signed with the local key, or by the node for its account. */
  signMessage(message: string, by: Sender): Promise<string>;
  /** The address that signed `message` (the library's own recovery). */
  recoverMessageSigner(message: string, signature: string): Promise<string>;

  /** New heads over WebSocket (eth_subscribe newHeads), as block numbers. */
  watchHeads(onHead: (number: bigint) => void): Promise<Unsubscribe>;
  /** `Incremented` events of `counter` over WebSocket (eth_subscribe logs). */
  watchIncrements(counter: string, onEvent: (event: IncrementedEvent) => void): Promise<Unsubscribe>;

  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly httpUrl: string;
  readonly wsUrl: string;
  readonly chainId: number;
  /** The key the library signs with (0x + 64 hex digits). */
  readonly localKey: string;
  /** An account the node holds and has unlocked. */
  readonly nodeAccount: string;
  /** The Counter fixture. */
  readonly counter: { readonly abi: readonly unknown[]; readonly bytecode: string };
}

export interface ClientAdapter {
  /** e.g. "ethers 6.17.0". */
  readonly name: string;
  connect(options: ConnectOptions): Promise<ClientSession>;
}
