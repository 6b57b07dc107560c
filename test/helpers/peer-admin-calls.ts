/** The net_* peer-administration calls (with harmless parameters) that only a credentialed caller may make. */
export const PEER_ADMIN_CALLS: ReadonlyArray<readonly [string, unknown[]]> = [
  ['net_listPeers', []],
  ['net_listBlacklistedPeers', []],
  ['net_addToBlacklist', ['203.0.113.9', 0]],
  ['net_removeFromBlacklist', ['203.0.113.9']],
  ['net_disconnectPeer', ['0']],
  ['net_connectToPeer', [`enode://${'ab'.repeat(64)}@203.0.113.9:30303`]],
];
