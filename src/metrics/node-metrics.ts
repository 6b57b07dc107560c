/**
 * The node's Prometheus metrics (prom-client), served by the RPC server at `GET /metrics`. The engine and the
 * dispatcher know nothing of this module: state is read at scrape time (head, peers, pool, filters, datadir
 * size), durations and reorganisations arrive through the engine's own events (`blockImported`, `reorg`, the
 * miner's `sealed`) and the dispatcher's observer hook (rpc-stats.ts, kept cheap for the hot path).
 *
 * Names follow Prometheus conventions: `svc_` prefix, base units (seconds, bytes), `_total` on counters; the
 * process and Node.js runtime metrics are prom-client's defaults under their usual names (`process_*`,
 * `nodejs_*`) so that stock dashboards read them.
 */
import type { Registry } from 'prom-client';
import type { BlockImportedEvent, ReorgEvent, ChainEngine, MinedBlock } from '../chain/index.js';
import type { SvcNode } from '../node/node.js';
import type { DispatchObserver } from '../rpc/observer.js';
import { BlockStats } from './block-stats.js';
import { CachedDirectorySize } from './dir-size.js';
import { RpcStats } from './rpc-stats.js';

/** What the metrics read from the WebSocket endpoint (absent when WebSocket is off). */
export interface WebSocketStats {
  readonly clientCount: number;
}

export interface NodeMetrics {
  /** Feeds the RPC request, error and latency metrics; give it to the dispatcher. */
  readonly observer: DispatchObserver;
  /** Called once the WebSocket endpoint exists. */
  attachWebSocket(stats: WebSocketStats): void;
  /** The exposition (Prometheus text format 0.0.4) and its content type. */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>;
  /** Detaches from the engine. */
  close(): void;
}

// Latency buckets (seconds) for RPC calls: most answer in well under a millisecond, writes wait for a dev block.
const RPC_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Block import: a mined block (already executed) is a write, a peer's full block is an execution too.
const IMPORT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
// Sealing: dev blocks take milliseconds; CPU mining at real difficulty takes seconds to minutes.
const SEAL_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

type PromClient = typeof import('prom-client');

/**
 * prom-client's process and runtime metrics, collected once per process (they describe the process, and each
 * collector starts an event-loop monitor and GC observer that nothing stops): every NodeMetrics serves them.
 */
let processRegistry: Registry | undefined;
function processMetrics({ Registry, collectDefaultMetrics }: PromClient): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * prom-client (some 180 modules with its OpenTelemetry dependency, ~0.1 s of CPU to load, and an event-loop monitor
 * that wakes every 10 ms once collecting) is loaded at the first scrape, never at start-up nor for a node nobody
 * scrapes. Until then the block and RPC statistics count in plain numbers (block-stats.ts, rpc-stats.ts) and
 * reorganisations in two counts, so every svc_ figure is the same as with an eager registry; only the runtime metrics
 * (GC, event-loop lag) start observing at the first scrape.
 */
export function createNodeMetrics(node: SvcNode): NodeMetrics {
  let websocket: WebSocketStats | undefined;
  const rpc = new RpcStats(RPC_BUCKETS);
  // Counted from the start in plain numbers (block-stats.ts), into the registry once it is built.
  const blocks = new BlockStats(IMPORT_BUCKETS, SEAL_BUCKETS);
  // Reorganisations before the registry exists: counted, then added to its counters when it is built.
  let earlyReorgs = 0;
  let earlyDropped = 0;
  let onReorg = (event: ReorgEvent) => {
    if (event.added.length === 0) return;
    earlyReorgs++;
    earlyDropped += event.dropped.length;
  };
  // Test mode swaps engines (test_setChainParams): follow whichever engine is attached, re-hooking on change.
  let hooked: ChainEngine | undefined;
  const importedHook = (event: BlockImportedEvent) => blocks.imported(event.status, event.durationMs / 1000);
  const sealedHook = (block: MinedBlock) => blocks.sealed(block.sealMs === undefined ? undefined : block.sealMs / 1000);
  const reorgHook = (event: ReorgEvent) => onReorg(event);
  function followEngine(): ChainEngine | undefined {
    const engine = node.engine;
    if (engine !== hooked) {
      unhook();
      engine?.chain.on('blockImported', importedHook);
      engine?.chain.on('reorg', reorgHook);
      engine?.miner.on('sealed', sealedHook);
      hooked = engine;
    }
    return engine;
  }
  function unhook(): void {
    hooked?.chain.off('blockImported', importedHook);
    hooked?.chain.off('reorg', reorgHook);
    hooked?.miner.off('sealed', sealedHook);
    hooked = undefined;
  }
  followEngine();

  let closed = false;
  let registries: Promise<{ registry: Registry; shared: Registry }> | undefined;
  const built = () =>
    (registries ??= import('prom-client').then((prom) => {
      const registry = buildRegistry(prom);
      return { registry, shared: processMetrics(prom) };
    }));

  function buildRegistry(prom: PromClient): Registry {
    const { Counter, Gauge, Registry } = prom;
    const registry = new Registry();
    const registers = [registry];
    const datadirSize = new CachedDirectorySize(node.config.datadir);

    new Gauge({
      name: 'svc_node_info',
      help: 'Always 1; the labels say what runs',
      labelNames: ['version', 'network', 'chain_id'],
      registers,
    }).set({ version: node.version, network: node.network.name, chain_id: node.network.chainId.toString() }, 1);

    new Gauge({
      name: 'svc_head_block_number',
      help: 'Number of the canonical head block',
      registers,
      collect() {
        const engine = followEngine();
        if (engine !== undefined) this.set(Number(engine.chain.getHead().header.number));
      },
    });
    new Gauge({
      name: 'svc_peers',
      help: 'Handshaked devp2p peers (0 when peering is off)',
      registers,
      collect() {
        this.set(node.peers?.peerCount() ?? 0);
      },
    });
    new Gauge({
      name: 'svc_sync_target_block',
      help: 'Block number a running sync is heading for; 0 when not syncing',
      registers,
      collect() {
        this.set(Number(node.peers?.syncProgress()?.highestBlock ?? 0n));
      },
    });
    new Gauge({
      name: 'svc_txpool_transactions',
      help: 'Transactions in the pool, by state',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = followEngine()?.pool;
        if (pool === undefined) return;
        this.set({ state: 'pending' }, pool.pendingCount);
        this.set({ state: 'queued' }, pool.queuedCount);
      },
    });
    new Gauge({
      name: 'svc_filters',
      help: 'Polled filters installed (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter)',
      registers,
      collect() {
        const filters = followEngine()?.logs.filters;
        if (filters !== undefined) this.set(filters.filterCount);
      },
    });
    new Gauge({
      name: 'svc_ws_subscriptions',
      help: 'Active eth_subscribe subscriptions',
      registers,
      collect() {
        const filters = followEngine()?.logs.filters;
        if (filters !== undefined) this.set(filters.subscriptionCount);
      },
    });
    new Gauge({
      name: 'svc_ws_connections',
      help: 'Open WebSocket connections',
      registers,
      collect() {
        this.set(websocket?.clientCount ?? 0);
      },
    });
    new Gauge({
      name: 'svc_state_prune_last',
      help: 'The last state pruning cycle (--gcmode full): its seconds, nodes marked and swept, live bytes, longest slice in ms',
      labelNames: ['figure'],
      registers,
      collect() {
        const last = followEngine()?.chain.pruning?.lastCycle;
        if (last === undefined) return;
        this.set({ figure: 'seconds' }, last.seconds);
        this.set({ figure: 'marked' }, last.marked);
        this.set({ figure: 'swept' }, last.swept);
        this.set({ figure: 'live_bytes' }, last.liveBytes);
        this.set({ figure: 'longest_slice_ms' }, last.longestSliceMs);
      },
    });
    new Gauge({
      name: 'svc_seal_checks',
      help: 'Blocks sealed here and re-executed by @ethereumjs/vm on a worker (exec.seal-check-lag): checked, failed (differed; production stopped), errors (no verdict), pending',
      labelNames: ['outcome'],
      registers,
      collect() {
        const stats = followEngine()?.chain.sealChecks?.stats;
        if (stats === undefined) return;
        this.set({ outcome: 'checked' }, stats.checked);
        this.set({ outcome: 'failed' }, stats.failed);
        this.set({ outcome: 'errors' }, stats.errors);
        this.set({ outcome: 'pending' }, stats.pending);
      },
    });
    new Gauge({
      name: 'svc_seal_check_waits',
      help: 'Block production held back by the seal checker (exec.seal-check-lag blocks without a verdict): times it waited, and seconds in all',
      labelNames: ['figure'],
      registers,
      collect() {
        const stats = followEngine()?.chain.sealChecks?.stats;
        if (stats === undefined) return;
        this.set({ figure: 'count' }, stats.waits);
        this.set({ figure: 'seconds' }, stats.waitedMs / 1000);
      },
    });
    new Gauge({
      name: 'svc_datadir_size_bytes',
      help: 'Bytes of the files under the data directory (chain database, keystore, Ethash caches kept there); measured at most once a minute',
      registers,
      async collect() {
        this.set(await datadirSize.value());
      },
    });

    // Both import series exist from the start, so that rate() and increase() see the first import.
    blocks.register(registry);

    // A switch to another branch, as geth's chain/reorg meters count it; a rewind (evm_revert, debug_setHead)
    // drops blocks without adding any and is not one. The log line says the same, but a monitor cannot alert on it.
    const reorgs = new Counter({
      name: 'svc_chain_reorgs_total',
      help: 'Times the canonical chain switched to another branch (fork choice by total difficulty)',
      registers,
    });
    const reorgDropped = new Counter({
      name: 'svc_chain_reorg_dropped_blocks_total',
      help: 'Canonical blocks replaced by another branch in those switches',
      registers,
    });

    rpc.register(registry);

    onReorg = (event: ReorgEvent) => {
      if (event.added.length === 0) return;
      reorgs.inc();
      reorgDropped.inc(event.dropped.length);
    };
    if (earlyReorgs > 0) reorgs.inc(earlyReorgs);
    if (earlyDropped > 0) reorgDropped.inc(earlyDropped);
    if (closed) registry.clear();
    return registry;
  }

  return {
    observer: rpc,
    attachWebSocket(stats) {
      websocket = stats;
    },
    async scrape() {
      const { registry, shared } = await built();
      const [own, runtime] = await Promise.all([registry.metrics(), shared.metrics()]);
      return { contentType: registry.contentType, body: `${own}\n${runtime}` };
    },
    close() {
      closed = true;
      unhook();
      void registries?.then(({ registry }) => registry.clear());
    },
  };
}
