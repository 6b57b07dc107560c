/**
 * The on-disk layout of the local 3-node dev cluster (`npm run cluster`), modelled on the spec's "Gorgoroth"
 * private network (product-behaviour §9): three datadirs under one base folder, each with a node key created
 * before the node first starts (so every enode URL is known in advance) and a `static-nodes.json` naming the
 * peers it dials: node1 none, node2 → node1, node3 → node2 + node1. Only node1 mines.
 *
 * Nothing here starts a process; scripts/cluster.ts does that from the specs this module returns.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { formatEnode } from '../../src/p2p/enode.js';
import { loadOrCreateNodeKey, nodeIdOf } from '../../src/p2p/node-key.js';

/**
 * HTTP JSON-RPC ports, with WebSocket on the same port at /ws. The spec's figures disagree (its compose file
 * publishes HTTP on 8546/8548/8550, its text says HTTP 8546/8547/8549 and WS 8545/8548/8550); we serve both
 * transports on one port, so we take the text's HTTP ports and drop the separate WS ones.
 */
export const DEFAULT_HTTP_PORTS: readonly number[] = [8546, 8547, 8549];
export const DEFAULT_P2P_PORTS: readonly number[] = [30303, 30304, 30305];
export const DEFAULT_BASE_DIR = '.cluster';
export const DEFAULT_BLOCK_TIME = '2s';
/** Loopback only: the cluster is for one machine, and the nodes' RPC has unlocked dev accounts. */
export const CLUSTER_HOST = '127.0.0.1';

/** §9's coinbases, so blocks in explorers and receipts show which node sealed them. */
const COINBASES = [
  '0x1000000000000000000000000000000000000001',
  '0x2000000000000000000000000000000000000002',
  '0x3000000000000000000000000000000000000003',
];
/** Indexes of the nodes each node dials (§9: node1 [], node2 → node1, node3 → node2 + node1). */
const STATIC_PEERS: readonly (readonly number[])[] = [[], [0], [1, 0]];

export interface ClusterOptions {
  readonly baseDir: string;
  /** Three ports each. */
  readonly httpPorts: readonly number[];
  readonly p2pPorts: readonly number[];
  /** How often node1 seals an empty block (a duration such as "2s"). */
  readonly blockTime: string;
}

export interface ClusterNodeSpec {
  readonly name: string;
  readonly datadir: string;
  readonly httpPort: number;
  readonly p2pPort: number;
  /** Computed from the node key before the node starts. */
  readonly enode: string;
  readonly mine: boolean;
  readonly coinbase: string;
  /** What static-nodes.json holds. */
  readonly staticPeers: readonly string[];
}

/** Throws with a message naming the problem: three ports per list, each 1–65535, no port used twice. */
export function checkPorts(httpPorts: readonly number[], p2pPorts: readonly number[]): void {
  for (const [what, list] of [
    ['HTTP', httpPorts],
    ['p2p', p2pPorts],
  ] as const) {
    if (list.length !== 3) throw new Error(`need exactly 3 ${what} ports, got ${list.length} (${list.join(',')})`);
    for (const port of list) {
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new Error(`${what} port ${port} is not in 1–65535`);
    }
  }
  const all = [...httpPorts, ...p2pPorts];
  const twice = all.find((port, i) => all.indexOf(port) !== i);
  if (twice !== undefined) throw new Error(`port ${twice} is given twice; every node needs its own HTTP and p2p port`);
}

/** Parses "8546,8547,8549". */
export function parsePortList(text: string): number[] {
  return text.split(',').map((part) => {
    const trimmed = part.trim();
    if (!/^[0-9]+$/.test(trimmed)) throw new Error(`"${trimmed}" is not a port number (in "${text}")`);
    return Number(trimmed);
  });
}

/**
 * Creates the three datadirs (with `reset`, emptied first), a node key in each unless one is there (a restarted
 * cluster keeps its enodes and its chain), and rewrites every static-nodes.json (ports may differ from last run).
 */
export function prepareCluster(options: ClusterOptions, reset = false): ClusterNodeSpec[] {
  checkPorts(options.httpPorts, options.p2pPorts);
  const baseDir = resolve(options.baseDir);
  const identities = [0, 1, 2].map((i) => {
    const datadir = join(baseDir, `node${i + 1}`);
    if (reset) rmSync(datadir, { recursive: true, force: true });
    mkdirSync(datadir, { recursive: true });
    const id = nodeIdOf(loadOrCreateNodeKey(datadir));
    return { datadir, enode: formatEnode({ id, host: CLUSTER_HOST, port: options.p2pPorts[i] }) };
  });
  return identities.map(({ datadir, enode }, i) => {
    const staticPeers = STATIC_PEERS[i].map((peer) => identities[peer].enode);
    writeFileSync(join(datadir, 'static-nodes.json'), JSON.stringify(staticPeers, null, 2) + '\n');
    return {
      name: `node${i + 1}`,
      datadir,
      httpPort: options.httpPorts[i],
      p2pPort: options.p2pPorts[i],
      enode,
      mine: i === 0,
      coinbase: COINBASES[i],
      staticPeers,
    };
  });
}

/** The svc-node flags and environment of one cluster node. */
export function nodeCommand(
  spec: ClusterNodeSpec,
  options: ClusterOptions,
): { args: string[]; env: Record<string, string> } {
  const args = [
    '--network',
    'dev',
    '--datadir',
    spec.datadir,
    '--http.addr',
    CLUSTER_HOST,
    '--http.port',
    String(spec.httpPort),
    // §9 sets CORS "*": browser tools (the docs portal of another node, a dapp on localhost) may call any node.
    '--http.cors',
    '*',
    '--p2p.addr',
    CLUSTER_HOST,
    '--p2p.port',
    String(spec.p2pPort),
    '--miner.coinbase',
    spec.coinbase,
    // A proof-of-work cluster: real Ethash seals, checked by every node (the dev default is instant-seal).
    '--seal',
    'ethash',
    // Shared, so the Ethash cache of epoch 0 is built once for the three nodes, not three times.
    '--ethash.cachedir',
    join(resolve(options.baseDir), 'ethash'),
  ];
  if (!spec.mine) args.push('--no-mine');
  // Only the miner's period matters; set on every node so a value in the caller's shell cannot leak in.
  const env = { SVC_NODE_MINING_BLOCK_TIME: spec.mine ? options.blockTime : '0' };
  return { args, env };
}
