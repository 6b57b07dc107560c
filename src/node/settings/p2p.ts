/** devp2p peering (src/p2p). Enode URLs are checked by the p2p module when it starts, not here. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MAX_PENDING_PEERS, DEFAULT_MAX_PENDING_PEERS_PER_IP } from '../../p2p/pending-limits.js';
import { SNAP_SOFT_RESPONSE_BYTES } from '../../p2p/snap/answer-limit.js';
import { DEFAULT_MAX_RSS_MIB } from '../../p2p/snap/sync/memory.js';
import { defaultBootnodes, defaultDnsTrees } from './entry-points.js';
import * as s from './setting.js';

/**
 * Dev peers only when asked: a static-nodes.json in the datadir, --bootnodes, --p2p.port or --p2p.addr. Otherwise two dev nodes
 * side by side (another --http.port each) would fight over the one default devp2p port.
 */
function devPeeringAsked(ctx: s.DefaultContext): boolean {
  const given = ctx.given ?? (() => false);
  return (
    given('network.bootnodes') ||
    given('network.server-address.port') ||
    given('network.server-address.interface') ||
    existsSync(join(ctx.datadir, 'static-nodes.json'))
  );
}

export const p2pSettings = {
  'network.p2p.enabled': s.bool({
    flag: 'p2p',
    default: (ctx) => !ctx.testmode && (ctx.network !== 'dev' || devPeeringAsked(ctx)),
    help:
      'mordor/etc: true; dev: only when asked (--p2p, --p2p.port, --p2p.addr, --bootnodes or <datadir>/static-nodes.json); ' +
      'false in testmode',
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
    default: ({ network }) => defaultBootnodes(network),
    help: "mordor/etc: the network's bootnodes (core-geth's); dev: none",
    description:
      'comma-separated enode URLs (enode://<node id>@<host>:<port>[?discport=<udp>]): where discovery starts and ' +
      'the first nodes dialled (without discovery: kept connected); replaces the default list',
  }),
  'network.snap.requests-per-peer': s.int({
    flag: 'snap.requests-per-peer',
    default: 2,
    min: 1,
    max: 64,
    description:
      "snap/1 requests of one peer answered at a time; the peer's further requests wait (so one peer cannot take " +
      "the node's whole I/O)",
  }),
  'network.snap.response-bytes': s.int({
    flag: 'snap.response-bytes',
    default: SNAP_SOFT_RESPONSE_BYTES,
    min: 4096,
    max: SNAP_SOFT_RESPONSE_BYTES,
    description:
      'most bytes of one snap/1 answer (a peer may ask for less): lower to serve state in smaller pieces, so ' +
      'that one request holds less memory and the link for less time',
  }),
  'network.max-peers': s.count({
    flag: 'maxpeers',
    default: 25,
    hint: 'to run without peers: --no-p2p',
    description:
      'most peer connections, inbound and outbound together; an inbound one counts once its handshake is done ' +
      '(at least 1; --no-p2p for none)',
  }),
  'network.max-pending-peers': s.count({
    flag: 'maxpendpeers',
    default: DEFAULT_MAX_PENDING_PEERS,
    description:
      'most inbound connections still in their handshake at once (they do not count against maxpeers); a new ' +
      'one past it cuts the oldest, so idle sockets cannot keep real peers out',
  }),
  'network.max-pending-peers-per-ip': s.count({
    flag: 'maxpendpeers.per-ip',
    default: DEFAULT_MAX_PENDING_PEERS_PER_IP,
    description:
      'most inbound connections in their handshake from one IP address; a new one past it cuts the oldest of them',
  }),
  'network.dial-ratio': s.int({
    flag: 'dialratio',
    default: 50,
    min: 1,
    max: 100,
    description: 'share of maxpeers, in percent, filled by dialling discovered nodes (the rest is left for inbound)',
  }),
  'network.discovery.discovery-enabled': s.bool({
    flag: 'discovery',
    default: ({ network, testmode }) => network !== 'dev' && !testmode,
    help: 'true on mordor/etc, false on dev and in testmode',
    description: 'find peers with discv4 (UDP) and the DNS trees, and dial them',
  }),
  'network.discovery.port': s.port({
    flag: 'discovery.port',
    default: undefined,
    help: 'the p2p port',
    description: 'UDP port of discv4',
  }),
  'network.discovery.interval': s.duration({
    flag: 'discovery.interval',
    default: 6_000,
    // Each tick re-pings the bootnodes while the table is empty: below a second that floods them.
    min: 1_000,
    description: 'discv4 table refresh tick (a tenth of the table is asked for neighbours each tick)',
  }),
  'network.discovery.dns': s.list({
    flag: 'dns',
    default: ({ network }) => defaultDnsTrees(network),
    help: "mordor/etc: the network's enrtree:// list (blockd.info); dev: none",
    description: 'comma-separated EIP-1459 tree URLs (enrtree://<public key>@<domain>); replaces the default list',
  }),
  'network.discovery.dns-server': s.string({
    placeholder: '<ip[:port]>',
    flag: 'dns.server',
    default: undefined,
    help: "the system's",
    description: 'DNS server (ip or ip:port) asked for the trees',
  }),
  'network.sync.mode': s.oneOf(['snap', 'full'], {
    flag: 'sync',
    default: ({ network }) => (network === 'dev' ? 'full' : 'snap'),
    help: 'mordor/etc: snap; dev: full',
    description:
      'how an empty node catches up: snap = download the state of a recent block (snap/1) and follow from there; ' +
      'full = execute every block from genesis (a node that already holds blocks always goes on with full sync)',
  }),
  'network.sync.pivot-distance': s.int({
    flag: 'sync.pivot-distance',
    default: 64,
    min: 2,
    max: 1024,
    description: 'snap sync: blocks the pivot stays below the head the peers agree on (it moves at twice this)',
  }),
  'network.sync.heal-pause': s.duration({
    flag: 'sync.heal-pause',
    default: 0,
    description:
      'snap sync: a pause before each trie-node request of the healing phase (0 = none), to go easy on the ' +
      'peers or to hold a node in that phase for a test',
  }),
  'network.sync.max-rss': s.int({
    flag: 'sync.max-rss',
    default: DEFAULT_MAX_RSS_MIB,
    min: 256,
    description:
      'snap sync: resident memory ceiling in MiB; near it the sync asks its peers for less at once, over it for ' +
      'one answer at a time, until memory falls again',
  }),
  'network.nat': s.string({
    placeholder: '<extip:IPv4>',
    flag: 'nat',
    default: undefined,
    help: 'none',
    description: 'extip:<IPv4> = the address other nodes reach us at (announced in discovery and the printed enode)',
  }),
};
