/** devp2p peering (src/p2p). Enode URLs are checked by the p2p module when it starts, not here. */
import * as s from './setting.js';

export const p2pSettings = {
  'network.p2p.enabled': s.bool({
    flag: 'p2p',
    default: ({ testmode }) => !testmode,
    help: 'true (false in testmode)',
    description: 'run devp2p peering (eth/68, snap/1 over RLPx): dial bootnodes, accept peers, sync',
  }),
  'network.server-address.interface': s.address({
    flag: 'p2p.addr',
    default: ({ network }) => (network === 'dev' ? '127.0.0.1' : '0.0.0.0'),
    help: 'dev: 127.0.0.1; mordor/etc: 0.0.0.0',
    description: 'address the devp2p TCP listener binds',
  }),
  'network.server-address.port': s.port({
    flag: 'p2p.port',
    default: 9076,
    description: 'devp2p TCP port (0 picks a free one; the "listening" log line reports it with the enode URL)',
  }),
  'network.bootnodes': s.list({
    flag: 'bootnodes',
    default: [],
    description: 'comma-separated enode URLs (enode://<node id>@<host>:<port>) of the peers to dial at start',
  }),
  'network.max-peers': s.count({
    flag: 'maxpeers',
    default: 25,
    hint: 'to run without peers: --no-p2p',
    description: 'most peer connections, inbound and outbound together (at least 1; --no-p2p for none)',
  }),
  'network.discovery.discovery-enabled': s.bool({
    default: false,
    description:
      'node discovery is not implemented: only bootnodes and net_connectToPeer peers are dialled (true logs a warning)',
  }),
};
