/**
 * The figures the MCP tools and resources report, read from the node at the time of the call: the chain engine
 * (head, total difficulty, genesis), the peer service (peer table, sync progress) and the configuration. One
 * reader per shape; the shapes are the Mcp* components of openrpc.json. Numbers that fit in 2^53 (block numbers,
 * counts, gas) are JSON numbers; difficulties are decimal strings.
 */
import { bytesToHex } from '@ethereumjs/util';
import { type ChainEngine, getNetwork, type NetworkDefinition } from '../chain/index.js';
import type {
  McpBlockchainInfo,
  McpLatestBlock,
  McpNodeConfig,
  McpNodeInfo,
  McpNodeStatus,
  McpPeerList,
  McpSyncStatus,
} from '../generated/types.js';
import type { SvcNode } from '../node/node.js';
import type { PeerDetails, PeerSearch, SyncProgress } from '../p2p/types.js';
import { McpUnavailableError } from './errors.js';
import { describeSearch } from '../p2p/search-log.js';

/** The running chain engine; what needs the chain cannot answer without one. */
export function engineOf(node: SvcNode): ChainEngine {
  const engine = node.engine;
  if (engine === undefined) throw new McpUnavailableError('Resource unavailable: the chain engine is not running');
  return engine;
}

/** The chain in force: the engine's (test mode installs its own), else the configured network's. */
function chainDefinitionOf(node: SvcNode): NetworkDefinition {
  return node.engine?.definition ?? getNetwork(node.config.network);
}

function networkNameOf(node: SvcNode, chain: NetworkDefinition): string {
  if (node.config.testmode) return `Chain ${chain.chainId}`;
  return { etc: 'ETC Mainnet', mordor: 'Mordor Testnet', dev: 'Dev chain' }[chain.name];
}

const num = (value: bigint): number => Number(value);

/** Sync progress in the shape both status readers share; null when not syncing (or peering is off). */
function syncProgressOf(node: SvcNode): SyncProgress | null {
  return node.peers?.syncProgress() ?? null;
}

export function nodeStatus(node: SvcNode): McpNodeStatus {
  const bestBlock = num(engineOf(node).chain.getHead().header.number);
  const chain = chainDefinitionOf(node);
  const peers = node.peers;
  const progress = syncProgressOf(node);
  return {
    running: true,
    syncing: progress !== null,
    syncState: progress !== null ? 'syncing' : peers !== undefined ? 'synced' : 'not_syncing',
    ...(progress !== null
      ? {
          startBlock: num(progress.startingBlock),
          currentBlock: num(progress.currentBlock),
          targetBlock: num(progress.highestBlock),
        }
      : {}),
    bestBlock,
    peerCount: peers?.peers().length ?? 0,
    handshakedPeers: peers?.peerCount() ?? 0,
    peering: peers !== undefined,
    networkId: num(chain.networkId),
    chainId: num(chain.chainId),
  };
}

export function nodeInfo(node: SvcNode): McpNodeInfo {
  const chain = chainDefinitionOf(node);
  const peers = node.peers;
  return {
    name: 'svc-node',
    version: node.version,
    clientVersion: node.clientVersion,
    runtime: `Node.js ${process.version}`,
    network: node.config.network,
    networkName: networkNameOf(node, chain),
    chainId: num(chain.chainId),
    networkId: num(chain.networkId),
    enode: peers?.enode ?? null,
    p2pPort: peers?.listenPort ?? null,
    apis: [...node.config.rpc.apis],
    startedAt: new Date(node.startedAt).toISOString(),
    uptimeSeconds: Math.floor((Date.now() - node.startedAt) / 1000),
  };
}

export function blockchainInfo(node: SvcNode): McpBlockchainInfo {
  const engine = engineOf(node);
  const head = engine.chain.getHead();
  return {
    network: node.config.network,
    networkName: networkNameOf(node, engine.definition),
    bestBlockNumber: num(head.header.number),
    bestBlockHash: bytesToHex(head.hash()),
    chainId: num(engine.definition.chainId),
    totalDifficulty: engine.chain.getHeadTotalDifficulty().toString(),
    genesisHash: bytesToHex(engine.chain.getGenesis().hash()),
  };
}

export function latestBlock(node: SvcNode): McpLatestBlock {
  const engine = engineOf(node);
  const block = engine.chain.getHead();
  const { header } = block;
  return {
    number: num(header.number),
    hash: bytesToHex(block.hash()),
    parentHash: bytesToHex(header.parentHash),
    miner: bytesToHex(header.coinbase.bytes),
    difficulty: header.difficulty.toString(),
    totalDifficulty: engine.chain.getHeadTotalDifficulty().toString(),
    gasLimit: num(header.gasLimit),
    gasUsed: num(header.gasUsed),
    timestamp: num(header.timestamp),
    transactionCount: block.transactions.length,
    stateRoot: bytesToHex(header.stateRoot),
    extraData: bytesToHex(header.extraData),
  };
}

/** Percent of the target height reached, two decimals, never above 100. */
export function progressPercent(current: bigint, target: bigint): number {
  if (target <= 0n || current >= target) return 100;
  return Number((current * 10_000n) / target) / 100;
}

export function syncStatus(node: SvcNode): McpSyncStatus {
  const bestBlock = num(engineOf(node).chain.getHead().header.number);
  const progress = syncProgressOf(node);
  const history = historyFields(node);
  if (progress !== null) {
    const remaining =
      progress.highestBlock > progress.currentBlock ? progress.highestBlock - progress.currentBlock : 0n;
    return {
      syncing: true,
      mode: 'full',
      status: 'syncing',
      bestBlock,
      startingBlock: num(progress.startingBlock),
      currentBlock: num(progress.currentBlock),
      targetBlock: num(progress.highestBlock),
      remainingBlocks: num(remaining),
      progressPercent: progressPercent(progress.currentBlock, progress.highestBlock),
      ...snapFields(progress),
      ...history,
    };
  }
  const peers = node.peers;
  if (peers === undefined) return { syncing: false, mode: 'idle', status: 'not_syncing', bestBlock };
  const lonely = peers.peerCount() === 0 ? { peerSearch: describeSearch(peers.search()) } : {};
  return { syncing: false, mode: 'regular', status: 'synced', bestBlock, ...lonely, ...history };
}

/** A snap sync's phase and counts, as eth_syncing names them. */
function snapFields(progress: SyncProgress): Partial<McpSyncStatus> {
  const snap = progress.snap;
  if (snap === undefined) return {};
  return {
    snapPhase: snap.phase,
    pivotBlock: num(snap.pivot),
    syncedAccounts: snap.accounts,
    syncedSlots: snap.slots,
    syncedCodes: snap.codes,
    healedNodes: snap.healedNodes,
    pendingHealNodes: snap.pendingHealNodes,
  };
}

/** After a snap sync, while the history below its pivot is fetched: how far that is. */
function historyFields(node: SvcNode): Partial<McpSyncStatus> {
  const history = node.peers?.historyBackfill?.() ?? null;
  if (history === null) return {};
  return {
    pivotBlock: num(history.pivot),
    backfilledBlocks: num(history.backfilledBlocks),
    backfillTarget: num(history.backfillTarget),
    backfillPercent: Number((history.backfilledBlocks * 1000n) / (history.backfillTarget || 1n)) / 10,
  };
}

type PeerEntry = McpPeerList['peers'][number];

function peerEntry(peer: PeerDetails): PeerEntry {
  return {
    id: peer.id,
    address: peer.remoteAddress,
    direction: peer.incoming ? 'inbound' : 'outbound',
    status: peer.status.toLowerCase() as PeerEntry['status'],
    nodeId: peer.nodeId,
    clientId: peer.clientId,
    capabilities: [...peer.capabilities],
    bestBlock: peer.maxBlockNumber === null ? null : num(peer.maxBlockNumber),
    totalDifficulty: peer.totalDifficulty === null ? null : peer.totalDifficulty.toString(),
    foundBy: peer.foundBy,
    score: peer.score,
  };
}

function searchOf({ dialFailures: _, ...s }: PeerSearch): McpPeerList['search'] & object {
  return { ...s, bootnodes: [...s.bootnodes], dnsTrees: s.dnsTrees.map((t) => ({ ...t })) };
}

export function peerList(node: SvcNode): McpPeerList {
  const peers = node.peers;
  if (peers === undefined) return { peering: false, count: 0, handshakedCount: 0, peers: [] };
  const entries = peers
    .peerDetails()
    .map(peerEntry)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    peering: true,
    count: entries.length,
    // The same count as net_peerCount, by the same call.
    handshakedCount: peers.peerCount(),
    peers: entries,
    search: searchOf(peers.search()),
  };
}

/**
 * The effective configuration, without secrets: the TLS keystore and its password file appear as paths only
 * (this module never opens them), and nothing here holds key material.
 */
export function nodeConfig(node: SvcNode): McpNodeConfig {
  const { config } = node;
  const chain = chainDefinitionOf(node);
  const { http, ws } = config.rpc;
  const forks: Record<string, number | null> = {};
  for (const [name, block] of Object.entries(chain.forks) as Array<[string, bigint | null]>) {
    forks[name] = block === null ? null : num(block);
  }
  return {
    network: config.network,
    chainId: num(chain.chainId),
    networkId: num(chain.networkId),
    version: node.version,
    datadir: config.datadir,
    configFile: config.configFile ?? null,
    testmode: config.testmode,
    logLevel: config.logLevel,
    chain: { forks, eraLength: num(chain.eraLength), minimumDifficulty: chain.pow.minimumDifficulty.toString() },
    rpc: {
      apis: [...config.rpc.apis],
      maxBatchSize: config.rpc.maxBatchSize,
      http: {
        mode: http.mode,
        interface: http.interface,
        port: node.rpcPort,
        corsAllowedOrigins: http.corsAllowedOrigins === '*' ? '*' : [...http.corsAllowedOrigins],
        maxBodySize: http.maxBodySize,
        rateLimit: { enabled: http.rateLimit.enabled, minRequestIntervalMs: http.rateLimit.minRequestIntervalMs },
        certificate:
          http.certificate === undefined
            ? null
            : {
                keystorePath: http.certificate.keystorePath,
                keystoreType: http.certificate.keystoreType,
                passwordFile: http.certificate.passwordFile ?? null,
              },
      },
      ws: { enabled: ws.enabled },
    },
    p2p: {
      enabled: config.p2p.enabled,
      interface: config.p2p.interface,
      port: node.peers?.listenPort ?? config.p2p.port,
      bootnodes: [...config.p2p.bootnodes],
      maxPeers: config.p2p.maxPeers,
      discovery: config.p2p.discovery,
    },
    mining: {
      enabled: config.mining.enabled,
      coinbase: config.mining.coinbase ?? null,
      blockTimeMs: config.mining.blockTimeMs,
      extraData: config.mining.extraData,
    },
    txpool: { size: config.txpool.size, transactionTimeoutMs: config.txpool.transactionTimeoutMs },
  };
}
