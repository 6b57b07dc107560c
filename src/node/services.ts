/**
 * Opens what the node runs on besides the RPC server: the chain engine (chain, PoW, pool, miner) and the
 * node-held accounts, configured from `NodeConfig`, and closes them again in the right order.
 */
import { hexToBytes } from '@ethereumjs/util';
import {
  AccountManager,
  keystoreDirOf,
  LIGHT_SCRYPT,
  ChainEngine,
  type EngineOptions,
  etcEngineRules,
  devWithCheckpointing,
  getNetwork,
  type DevAccount,
  devAccountsOf,
  devControlsOf,
  devWithAccounts,
  DatabaseLockedError,
  type ForkUpstream,
  type NetworkName,
  type NetworkDefinition,
  withForkOverrides,
} from '../chain/index.js';
import { checkDatadirSchedule, logForksAhead } from './fork-schedule.js';
import { logChainActivity } from './chain-activity-log.js';
import { minedConsoleLines } from './console-output.js';
import { printTraces } from './print-traces.js';
import { logPoolDrops } from './pool-drop-log.js';
import { openDevStateFile, type DevStateFile } from './dev-state-file.js';
import { lockedDatadirMessage, removePidFile, writePidFile } from './datadir-pid.js';
import type { ForkConfig, NodeConfig } from './config.js';
import { upstreamClientFor } from './fork/upstream-client.js';
import { cachedUpstreamOf } from './fork/cached-upstream.js';
import { forkNetworkOf } from './fork/upstream-network.js';
import type { SvcNode } from './node.js';
import type { PeerService } from '../p2p/index.js';

export interface NodeServices {
  readonly engine: ChainEngine;
  readonly accounts: AccountManager;
  /** The dev chain's funded test accounts (`--accounts`, `--mnemonic`); none on mordor and etc. */
  readonly devAccounts: readonly DevAccount[];
  /**
   * Starts devp2p peering when the configuration turns it on (a no-op otherwise). Separate from opening, so that the
   * RPC server can listen first: the first answer does not wait for the p2p modules to load and the port to open.
   * On failure `close()` still closes what was opened.
   */
  startPeers(): Promise<void>;
  close(): Promise<void>;
}

export async function openNodeServices(node: SvcNode): Promise<NodeServices> {
  const { config, log } = node;
  const fork: Partial<Awaited<ReturnType<typeof forkOptionsOf>>> =
    config.fork === undefined ? {} : await forkOptionsOf(config.fork, config.datadir);
  const devAccounts = config.network === 'dev' ? await testAccountsOf(config) : [];
  const network = config.dev.customAccounts
    ? {
        network: withForkOverrides(
          devWithAccounts(
            builtInNetworkOf(config),
            devAccounts.map((a) => a.address),
            config.dev.balanceWei,
          ),
          config.forkOverrides,
        ),
      }
    : {};
  const engine = await ChainEngine.open({ ...engineOptionsOf(node), ...network, ...fork }).catch((err: unknown) => {
    throw err instanceof DatabaseLockedError ? new Error(lockedDatadirMessage(config.datadir), { cause: err }) : err;
  });
  // Before anything runs on the chain: a moved fork it already passed would leave blocks executed under other rules.
  const opened = engine.chain.getHead().header.number;
  if (config.fork === undefined) {
    try {
      checkDatadirSchedule(config.datadir, builtInNetworkOf(config).forks, engine.definition, opened);
    } catch (err) {
      await engine.close();
      throw err;
    }
  }
  // The database lock is ours now: say so in the datadir, for a second node that finds it locked.
  writePidFile(config.datadir);
  engine.miner.on('failure', (err: Error) => log.warn('mining failed', { error: err.message }));
  if (config.mining.enabled) engine.miner.start();
  let stateFile: DevStateFile | undefined;
  try {
    // Anvil's --block-time: automine off, a block on a timer, from the first moment.
    if (config.dev.blockTimeMs > 0) await devControlsOf(engine).setIntervalMining(config.dev.blockTimeMs / 1000);
    stateFile = await openDevStateFile(engine, config.dev, log);
  } catch (err) {
    await engine.close();
    removePidFile(config.datadir);
    throw err;
  }
  const accounts = new AccountManager({
    keystoreDir: keystoreDirOf(config.datadir),
    minPassphraseLength: config.keystore.minimalPassphraseLength,
    allowEmptyPassphrase: false,
    ...(config.keystore.lightKdf ? { scrypt: LIGHT_SCRYPT } : {}),
  });
  // The dev chain's prefunded test-mnemonic accounts are node-held and unlocked, as in other dev nodes.
  if (config.network === 'dev')
    accounts.addNodeHeldKeys(devAccounts.map((a) => hexToBytes(a.privateKey as `0x${string}`)));
  node.attachEngine(engine);
  node.attachAccounts(accounts);
  // Blocks, reorgs and the pool's size at info. It follows the engine opened here: test mode's swapped-in chains
  // (test_setChainParams) are conformance fixtures, not activity a person watches.
  const activity = logChainActivity(engine, log);
  // What the pool's bounds let go (expired, evicted), never silently.
  const poolDrops = logPoolDrops(engine, log);
  const traces = config.devOutput.printTraces ? printTraces(engine, log) : undefined;
  const head = engine.chain.getHead();
  log.info('chain opened', {
    network: config.network,
    seal: engine.sealMode,
    ...(fork.fork !== undefined ? { forkOf: fork.fork.name, forkNetwork: fork.network } : {}),
    head: head.header.number.toString(),
    hash: `0x${Buffer.from(head.hash()).toString('hex')}`,
  });
  // The schedule this node will follow from here, under the line that names the chain.
  if (config.fork === undefined) logForksAhead(log, engine.definition, head.header.number, config.forkOverrides);
  let peers: PeerService | undefined;
  const startPeers = async (): Promise<void> => {
    if (peers !== undefined) return;
    // A fork's blocks are its own: it has no peers to follow or to tell.
    if (config.fork !== undefined) return;
    if (!config.p2p.enabled) {
      // Said once at start, so a dev user who expected peers learns how to ask for them.
      if (config.network === 'dev' && !config.testmode)
        log.info('p2p off', {
          reason:
            'dev peers only when asked: --p2p, --p2p.port, --p2p.addr, --bootnodes or <datadir>/static-nodes.json',
        });
      // A public chain without peers never moves: say so once, where the start-up lines are read.
      if (config.network !== 'dev' && !config.testmode)
        log.warn('p2p off', {
          reason: `${config.network} blocks come only from peers or the import command: this node stays at its head`,
          fix: 'drop --no-p2p (network.p2p.enabled = false)',
        });
      return;
    }
    // Loaded here, not at start-up: devp2p and its cryptography are some 100 modules.
    const { startPeerService } = await import('../p2p/index.js');
    peers = await startPeerService({
      datadir: config.datadir,
      engine,
      clientId: node.clientVersion,
      listenHost: config.p2p.interface,
      listenPort: config.p2p.port,
      maxPeers: config.p2p.maxPeers,
      maxPendingPeers: config.p2p.maxPendingPeers,
      maxPendingPeersPerIp: config.p2p.maxPendingPeersPerIp,
      bootnodes: config.p2p.bootnodes,
      log,
      dialRatio: config.p2p.dialRatio,
      syncMode: config.p2p.syncMode,
      pivotDistance: config.p2p.pivotDistance,
      healPauseMs: config.p2p.healPauseMs,
      snapMaxRssBytes: config.p2p.snapMaxRssBytes,
      snapRequestsPerPeer: config.p2p.snapRequestsPerPeer,
      snapResponseBytes: config.p2p.snapResponseBytes,
      ...(config.p2p.externalIp !== undefined ? { externalIp: config.p2p.externalIp } : {}),
      ...(config.p2p.discovery ? { discovery: discoveryOptionsOf(config.p2p) } : {}),
    });
    node.attachPeers(peers);
    log.info('p2p listening', {
      enode: peers.enode,
      port: peers.listenPort,
      ...enodeNote(config.p2p),
      ...(config.p2p.discovery ? { discovery: peers.search() } : {}),
    });
  };
  return {
    engine,
    accounts,
    devAccounts,
    startPeers,
    async close() {
      await peers?.close();
      // Before the engine closes, after the RPC server did: the state the last request left.
      await stateFile?.close();
      accounts.lockAll();
      // test_setChainParams may have put another engine in place of this one (and closed this one then).
      await (node.engine ?? engine).close();
      // After the engine: blocks it stored while closing still get their line.
      activity.close();
      poolDrops.close();
      traces?.close();
      removePidFile(config.datadir);
    },
  };
}

/**
 * The engine options the configuration gives. Test mode (test-chains.ts) opens its chains with these too,
 * overriding network, data directory, rules and seal checks.
 */
export function engineOptionsOf(node: SvcNode): EngineOptions {
  const { config, log } = node;
  return {
    dataDir: config.datadir,
    network: withForkOverrides(builtInNetworkOf(config), config.forkOverrides),
    seal: config.mining.seal,
    pool: {
      maxSize: config.txpool.size,
      queuedLifetimeMs: config.txpool.transactionTimeoutMs,
      order: config.dev.order,
    },
    caches: config.caches,
    writeBehind: config.writeBehind,
    callWorkers: { workers: config.exec.workers, maxQueued: config.exec.maxQueued },
    execution: { lean: config.exec.lean, sealCheckLag: config.exec.sealCheckLag },
    ...(config.devOutput.console ? { console: minedConsoleLines(log) } : {}),
    retention: config.state,
    pruning: { minTriggerBytes: config.state.pruneMinBytes },
    onWarning: (message) => log.warn(message),
    onError: (message, fields) => log.error(message, fields),
    log: log.child({ component: 'engine' }),
    logs: {
      maxBlockRange: config.rpc.logs.maxBlockRange,
      maxResults: config.rpc.logs.maxResults,
      filterTimeoutMs: config.rpc.filterTimeoutMs,
      accountHistoryMaxBlocks: config.rpc.accountTransactionsMaxBlocks,
    },
    mining: {
      ...(config.mining.coinbase ? { coinbase: hexToBytes(config.mining.coinbase as `0x${string}`) } : {}),
      extraData: new TextEncoder().encode(config.mining.extraData),
      blockTimeSeconds: config.mining.blockTimeMs / 1000,
    },
    ...(config.mining.ethashCacheDir !== undefined ? { powCacheDir: config.mining.ethashCacheDir } : {}),
    // Test chains run at whatever time their blocks say: no "from the future" check in test mode.
    ...(config.testmode
      ? { rules: etcEngineRules(withForkOverrides(getNetwork(config.network), config.forkOverrides)) }
      : {}),
  };
}

/** The test accounts `dev.mnemonic` and `dev.accounts` name, or a start-up error naming the setting. */
async function testAccountsOf(config: NodeConfig): Promise<readonly DevAccount[]> {
  try {
    return await devAccountsOf(config.dev.mnemonic, config.dev.accounts);
  } catch (err) {
    throw new Error(`dev.mnemonic (--mnemonic): ${(err as Error).message}`);
  }
}

/** The network as this release defines it, before `override.<fork>`. */
export function builtInNetworkOf(config: NodeConfig): NetworkDefinition {
  return config.checkpointing ? devWithCheckpointing : getNetwork(config.network);
}

/** Fork mode: the upstream client, and the upstream's network (its chain id and rules) instead of dev's. */
async function forkOptionsOf(
  config: ForkConfig,
  datadir: string,
): Promise<{ network: NetworkName; fork: ForkUpstream }> {
  const upstream = upstreamClientFor(config);
  const record = await forkNetworkOf(datadir, upstream, config.url, config.cache);
  return { network: record.network, fork: cachedUpstreamOf(upstream, record, config.cache) };
}

function discoveryOptionsOf(p2p: NodeConfig['p2p']) {
  return {
    intervalMs: p2p.discoveryIntervalMs,
    dnsTrees: p2p.dnsTrees,
    ...(p2p.discoveryPort !== undefined ? { port: p2p.discoveryPort } : {}),
    ...(p2p.dnsServer !== undefined ? { dnsServer: p2p.dnsServer } : {}),
  };
}

/** Whether the printed enode is one a remote node can dial, and if not, why and what to do. */
function enodeNote(p2p: NodeConfig['p2p']): { note?: string } {
  if (p2p.externalIp !== undefined) return {};
  if (p2p.interface === '0.0.0.0' || p2p.interface === '::')
    return { note: 'listening on every interface; the enode shows 127.0.0.1: pass --nat extip:<public IP> for others' };
  if (/^127\.|^::1$|^localhost$/.test(p2p.interface))
    return { note: 'loopback address: only nodes on this machine can dial it' };
  return {};
}
