/**
 * The five MCP tools, in list order (product-behaviour §6.1). Each reads one shape from the node (node-data.ts)
 * and renders it as a report: a header line, then two-space-indented `Label: value` lines, the layout the
 * original product's live tools use. The same object travels as structuredContent, so an agent can read the
 * figures without parsing text.
 */
import type { McpBlockchainInfo, McpNodeInfo, McpNodeStatus, McpPeerList, McpSyncStatus } from '../generated/types.js';
import type { SvcNode } from '../node/node.js';
import { blockchainInfo, nodeInfo, nodeStatus, peerList, progressPercent, syncStatus } from './node-data.js';

export interface ToolDefinition<T extends object = object> {
  readonly name: string;
  readonly description: string;
  /** The openrpc.json component that describes `read`'s result (the tool's outputSchema). */
  readonly outputComponent: string;
  read(node: SvcNode): T;
  render(data: T): string;
}

const report = (header: string, lines: ReadonlyArray<readonly [string, string | number | boolean]>): string =>
  [header, ...lines.map(([label, value]) => `  ${label}: ${value}`)].join('\n');

/** Each definition is typed by its own shape; the list holds them as the common type. */
const tool = <T extends object>(definition: ToolDefinition<T>): ToolDefinition =>
  definition as unknown as ToolDefinition;

function renderNodeStatus(s: McpNodeStatus): string {
  const syncState =
    s.syncState === 'syncing'
      ? `Syncing (from block ${s.startBlock})`
      : s.syncState === 'synced'
        ? 'Synced'
        : 'Not syncing (peering is off)';
  const progress =
    s.syncState === 'syncing'
      ? `Block ${s.currentBlock}/${s.targetBlock} (${progressPercent(BigInt(s.currentBlock!), BigInt(s.targetBlock!)).toFixed(2)}%)`
      : s.syncState === 'synced'
        ? 'Complete'
        : 'N/A';
  return report('Node Status:', [
    ['Running', s.running],
    ['Sync State', syncState],
    ['Sync Progress', progress],
    ['Best Block', s.bestBlock],
    ['Peers', `${s.peerCount} total (${s.handshakedPeers} handshaked)`],
    ['Chain ID', s.chainId],
    ['Network ID', s.networkId],
  ]);
}

function renderNodeInfo(i: McpNodeInfo): string {
  return report('svc-node Node Information:', [
    ['Version', i.version],
    ['Client ID', i.clientVersion],
    ['Runtime', i.runtime],
    ['Network', i.networkName],
    ['Chain ID', i.chainId],
    ['Network ID', i.networkId],
    ['Enode', i.enode ?? 'none (peering is off)'],
    ['APIs', i.apis.join(', ')],
    ['Started', `${i.startedAt} (up ${i.uptimeSeconds} s)`],
  ]);
}

function renderBlockchainInfo(b: McpBlockchainInfo): string {
  return report('Blockchain Information:', [
    ['Network', b.networkName],
    ['Best Block Number', b.bestBlockNumber],
    ['Best Block Hash', b.bestBlockHash],
    ['Chain ID', b.chainId],
    ['Total Difficulty', b.totalDifficulty],
    ['Genesis Hash', b.genesisHash],
  ]);
}

function renderSyncStatus(s: McpSyncStatus): string {
  if (s.syncing) {
    return report('Sync Status:', [
      ['Mode', 'Full sync'],
      ['Syncing', true],
      ['Starting Block', s.startingBlock!],
      ['Current Block', s.currentBlock!],
      ['Target Block', s.targetBlock!],
      ['Remaining Blocks', s.remainingBlocks!],
      ['Progress', `${s.progressPercent!.toFixed(2)}%`],
      ['Best Block', s.bestBlock],
      ...snapLines(s),
    ]);
  }
  const synced = s.status === 'synced';
  return report('Sync Status:', [
    ['Mode', synced ? 'Regular sync (following peers)' : 'Not syncing (peering is off)'],
    ['Syncing', false],
    ['Best Block', s.bestBlock],
    ['Status', synced ? 'Synced (no peer is ahead)' : 'Idle'],
    ...snapLines(s),
  ]);
}

/** A snap sync's phase and counts, and the history backfill after it, when there are any. */
function snapLines(s: McpSyncStatus): [string, string | number][] {
  const lines: [string, string | number][] = [];
  if (s.snapPhase !== undefined)
    lines.push(
      ['Snap Phase', s.snapPhase],
      ['Pivot Block', s.pivotBlock!],
      ['Accounts / Slots / Codes', `${s.syncedAccounts} / ${s.syncedSlots} / ${s.syncedCodes}`],
      ['Healed Nodes', s.healedNodes!],
    );
  if (s.backfillTarget !== undefined)
    lines.push([
      'History Backfill',
      `${s.backfilledBlocks} of ${s.backfillTarget} blocks below pivot ${s.pivotBlock} (${s.backfillPercent}%)`,
    ]);
  return lines;
}

function renderPeerList(list: McpPeerList): string {
  if (!list.peering) return report('Connected Peers: 0', [['Peering', 'off on this node (--no-p2p or test mode)']]);
  if (list.count === 0) return 'Connected Peers: 0\n  No peers connected.';
  const lines = list.peers.map((p) => {
    const facts: string[] = [p.direction, p.status];
    if (p.nodeId !== null) facts.push(`node ${p.nodeId.slice(0, 8)}…${p.nodeId.slice(-4)}`);
    if (p.clientId !== null) facts.push(p.clientId);
    if (p.bestBlock !== null) facts.push(`best block ${p.bestBlock}`);
    return `  ${p.id}: ${facts.join(', ')}`;
  });
  return [`Connected Peers: ${list.count} (${list.handshakedCount} handshaked)`, ...lines].join('\n');
}

export const tools: readonly ToolDefinition[] = [
  tool({
    name: 'mcp_node_status',
    description: 'Get the current status of the node: running, sync state and progress, best block, peers.',
    outputComponent: 'McpNodeStatus',
    read: nodeStatus,
    render: renderNodeStatus,
  }),
  tool({
    name: 'mcp_node_info',
    description: 'Get detailed information about the node: version, network, chain id, network id, client id.',
    outputComponent: 'McpNodeInfo',
    read: nodeInfo,
    render: renderNodeInfo,
  }),
  tool({
    name: 'mcp_blockchain_info',
    description: 'Get information about the blockchain state: best block, total difficulty, genesis hash.',
    outputComponent: 'McpBlockchainInfo',
    read: blockchainInfo,
    render: renderBlockchainInfo,
  }),
  tool({
    name: 'mcp_sync_status',
    description: 'Get detailed synchronisation status.',
    outputComponent: 'McpSyncStatus',
    read: syncStatus,
    render: renderSyncStatus,
  }),
  tool({
    name: 'mcp_peer_list',
    description: 'List all connected peers.',
    outputComponent: 'McpPeerList',
    read: peerList,
    render: renderPeerList,
  }),
];
