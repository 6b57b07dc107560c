/** Authentication of JSON-RPC callers (src/server/auth.ts): off unless turned on. */
import { join } from 'node:path';
import * as s from './setting.js';

/**
 * The `net` methods that show or steer this node's peering: who it is connected to, whom it blocks (for good, in the
 * datadir), and the hosts it dials. The rest of `net` (net_version, net_listening, net_peerCount) is open to all.
 */
export const PEER_ADMIN_METHODS: readonly string[] = [
  'net_listPeers',
  'net_listBlacklistedPeers',
  'net_connectToPeer',
  'net_disconnectPeer',
  'net_addToBlacklist',
  'net_removeFromBlacklist',
];

/** What the default `protected` list names: every method that spends, signs, mines or inspects the node. */
export const DEFAULT_PROTECTED: readonly string[] = [
  'personal',
  'debug',
  'trace',
  'qa',
  'test',
  'anvil',
  'checkpointing',
  'txpool',
  'admin',
  'eth_sendTransaction',
  'eth_sendRawTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData_v4',
  'eth_submitWork',
  'eth_submitHashrate',
  'miner_start',
  'miner_stop',
  'miner_setEtherbase',
  ...PEER_ADMIN_METHODS,
];

export const authSettings = {
  'network.rpc.auth.enabled': s.bool({
    default: false,
    description:
      'require a JWT bearer token or an API key for the protected methods, and for every WebSocket connection (HTTP 401 otherwise)',
  }),
  'network.rpc.auth.protected': s.list({
    default: DEFAULT_PROTECTED,
    description: 'namespaces and method names only an authenticated caller may call ("*" = every method)',
  }),
  'network.rpc.auth.anonymous-peer-admin': s.bool({
    default: ({ network }) => network === 'dev',
    help: 'dev: true; mordor/etc: false',
    description:
      'with authentication off, serve the net methods that show or change peering (net_listPeers, net_connectToPeer, net_disconnectPeer, net_*Blacklist*) to every caller; with it on, protected decides',
  }),
  'network.rpc.auth.jwt-secret-file': s.path({
    default: ({ datadir }) => join(datadir, 'jwt.hex'),
    help: '<datadir>/jwt.hex',
    description: 'HS256 secret (32 bytes as hex); created with mode 0600 when auth is on and the file is missing',
  }),
  'network.rpc.auth.api-keys-file': s.path({
    default: undefined,
    description: 'file with one API key per line, accepted in the X-API-Key header',
  }),
};
