/**
 * The node as the handlers see it: configuration, network facts, and the parts attached as they come to exist
 * (the chain engine attaches a `ChainStatusSource`; later issues attach more). Nothing here knows JSON-RPC.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AccountManager, type ChainEngine, getNetwork, TraceSlots, type NetworkName } from '../chain/index.js';
import type { Namespace } from '../generated/registry.js';
import type { PeerService } from '../p2p/types.js';
import type { NodeConfig } from './config.js';
import type { Logger } from './logger.js';
import { TestSession } from './test-session.js';

export interface NetworkFacts {
  readonly name: NetworkName;
  /** EIP-155 chain id (`eth_chainId`). */
  readonly chainId: bigint;
  /** `net_version`: decimal string, as the spec's table gives it. */
  readonly netVersion: string;
}

/** The facts the RPC layer reports, taken from the chain engine's network definitions (one source). */
export function networkFactsOf(name: NetworkName): NetworkFacts {
  const { chainId, netVersion } = getNetwork(name);
  return { name, chainId, netVersion };
}

/** What the health endpoints need from the chain and sync machinery. Block numbers are `undefined` when unknown. */
export interface ChainStatus {
  readonly peerCount: number;
  readonly bestStoredBlock?: bigint;
  /** While syncing: the sync target and the block being fetched. */
  readonly syncing?: {
    readonly startingBlock: bigint;
    readonly currentBlock: bigint;
    readonly targetBlock: bigint;
    /** During a snap sync: its phase (the target is then the pivot block). */
    readonly snapPhase?: string;
  };
  /** Not syncing: the number of the pending block (best + 1), when a chain exists. */
  readonly pendingBlock?: bigint;
}

export interface ChainStatusSource {
  status(): ChainStatus;
}

/**
 * Overlays what the peer service knows (handshaked peers, sync progress) on the chain's status. Kept apart from
 * the chain status source so that an engine attached later (test mode swaps engines) cannot drop it.
 */
function withPeers(chain: ChainStatus, peers: PeerService): ChainStatus {
  const progress = peers.syncProgress();
  if (progress === null) return { ...chain, peerCount: peers.peerCount() };
  const { pendingBlock: _onlyWhenNotSyncing, ...rest } = chain;
  return {
    ...rest,
    peerCount: peers.peerCount(),
    syncing: {
      startingBlock: progress.startingBlock,
      currentBlock: progress.currentBlock,
      targetBlock: progress.highestBlock,
      ...(progress.snap !== undefined ? { snapPhase: progress.snap.phase } : {}),
    },
  };
}

/** Before an engine is attached the node has no peers and no blocks, and says so. */
const noChain: ChainStatusSource = { status: () => ({ peerCount: 0 }) };

export class SvcNode {
  readonly network: NetworkFacts;
  readonly clientVersion: string;
  readonly version: string;
  /** Enabled namespaces (the effective `apis` list). */
  readonly enabledNamespaces: ReadonlySet<Namespace>;
  readonly startedAt = Date.now();
  /**
   * The trace requests running and waiting in this process (network.rpc.debug.max-concurrent-traces, trace-queue,
   * a wait of at most trace-timeout): the node's, not an engine's, so a swapped engine keeps the bound.
   */
  readonly traceSlots: TraceSlots;
  #chainStatus: ChainStatusSource = noChain;
  #engine: ChainEngine | undefined;
  #accounts: AccountManager | undefined;
  #peers: PeerService | undefined;
  #testSession: TestSession | undefined;

  constructor(
    readonly config: NodeConfig,
    readonly log: Logger,
  ) {
    this.network = networkFactsOf(config.network);
    this.version = packageVersion();
    this.clientVersion = `svc-node/v${this.version}/${process.platform}-${process.arch}/node${process.versions.node}`;
    this.enabledNamespaces = new Set(config.rpc.apis);
    const { maxConcurrentTraces, traceQueue, traceTimeoutMs } = config.rpc.debug;
    this.traceSlots = new TraceSlots(maxConcurrentTraces, traceQueue, traceTimeoutMs);
  }

  /** Called by the chain engine once it is running. */
  attachChainStatus(source: ChainStatusSource): void {
    this.#chainStatus = source;
  }

  /** Attaches the running chain engine; health and handlers read the chain through it from then on. */
  attachEngine(engine: ChainEngine): void {
    this.#engine = engine;
    this.attachChainStatus({
      status: () => {
        const head = engine.chain.getHead().header.number;
        return { peerCount: 0, bestStoredBlock: head, pendingBlock: head + 1n };
      },
    });
  }

  /**
   * Test mode (test_setChainParams): puts a fresh engine in place of the running one and hands back the old one
   * for the caller to close once nothing uses it any more.
   */
  replaceEngine(engine: ChainEngine): ChainEngine | undefined {
    const previous = this.#engine;
    this.attachEngine(engine);
    return previous;
  }

  #rpcPort: number | undefined;

  /** The port the RPC server is bound to (the configured one may be 0: "pick a free port"). */
  noteRpcPort(port: number): void {
    this.#rpcPort = port;
  }

  get rpcPort(): number {
    return this.#rpcPort ?? this.config.rpc.http.port;
  }

  attachAccounts(accounts: AccountManager): void {
    this.#accounts = accounts;
  }

  /** Attaches the running devp2p service (not done when peering is disabled). */
  attachPeers(service: PeerService): void {
    this.#peers = service;
  }

  /** The peer service, or undefined when peering is off (`--no-p2p`, test mode) or not started yet. */
  get peers(): PeerService | undefined {
    return this.#peers;
  }

  /** The chain engine, or undefined while none is attached (unit tests of the transport). */
  get engine(): ChainEngine | undefined {
    return this.#engine;
  }

  get accounts(): AccountManager | undefined {
    return this.#accounts;
  }

  /** Test mode's state (the test_* methods), made on first use; it outlives the engines test_setChainParams swaps in. */
  get testSession(): TestSession {
    this.#testSession ??= new TestSession(this);
    return this.#testSession;
  }

  chainStatus(): ChainStatus {
    const chain = this.#chainStatus.status();
    return this.#peers === undefined ? chain : withPeers(chain, this.#peers);
  }
}

let cachedVersion: string | undefined;

/** The package version, found by walking up from this file (works from src/ under tsx and from dist/). */
export function packageVersion(): string {
  if (cachedVersion) return cachedVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'svc-node' && pkg.version) return (cachedVersion = pkg.version);
    } catch {
      // not here; keep walking up
    }
    const parent = dirname(dir);
    if (parent === dir) return (cachedVersion = '0.0.0');
    dir = parent;
  }
}
