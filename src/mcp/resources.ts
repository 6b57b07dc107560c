/**
 * The five MCP resources, in list order (product-behaviour §6.2): JSON documents read from the node at the time
 * of the call. Three share their reader with a tool, so a resource and its tool never disagree.
 */
import type { SvcNode } from '../node/node.js';
import { latestBlock, nodeConfig, nodeStatus, peerList, syncStatus } from './node-data.js';

export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly description: string;
  /** The openrpc.json component that describes the document. */
  readonly component: string;
  read(node: SvcNode): object;
}

export const RESOURCE_MIME_TYPE = 'application/json';

type Read = (node: SvcNode) => object;
const resource = (
  uri: string,
  name: string,
  description: string,
  component: string,
  read: Read,
): ResourceDefinition => ({
  uri,
  name,
  description,
  component,
  read,
});

export const resources: readonly ResourceDefinition[] = [
  resource('svc://node/status', 'Node Status', 'Current status of the node', 'McpNodeStatus', nodeStatus),
  resource('svc://node/config', 'Node Configuration', 'Current node configuration', 'McpNodeConfig', nodeConfig),
  resource(
    'svc://blockchain/latest',
    'Latest Block',
    'Information about the latest block',
    'McpLatestBlock',
    latestBlock,
  ),
  resource('svc://peers/connected', 'Connected Peers', 'List of currently connected peers', 'McpPeerList', peerList),
  resource(
    'svc://sync/status',
    'Sync Status',
    'Current blockchain synchronisation status',
    'McpSyncStatus',
    syncStatus,
  ),
];
