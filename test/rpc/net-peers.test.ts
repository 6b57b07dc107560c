/**
 * The RPC surface of peering, without real peers: a node with peering off answers the peer methods with -32002
 * and says how to turn it on; a node with a stand-in peer service shows that each method reaches the service,
 * renders its answer in the schema's shape (results are checked against openrpc.json in test mode) and maps
 * the service's input errors to -32602; eth_syncing and the `syncing` subscription follow its sync events.
 * Real multi-node peering is tested elsewhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcNode } from '../../src/node/node.js';
import {
  PeerInputError,
  type BlacklistEntry,
  type PeerDetails,
  type PeerService,
  type SyncEvent,
  type SyncProgress,
} from '../../src/p2p/types.js';
import { runCli } from '../../src/cli/cli.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';
import { until, WsClient } from './logs-fixture.js';

const NODE_ID =
  'e3bfa9b623cc977137f97334582646ff44877d1ea7a136d9d2b19686f84fa984cc42d83165c26440ebabf7eced7886c23da678f59790b70b4d8df328995e303c';
const ENODE = `enode://${NODE_ID}@127.0.0.1:30303`;
const PEER_METHODS: Array<[string, unknown[]]> = [
  ['net_listPeers', []],
  ['net_disconnectPeer', ['127.0.0.1:30303']],
  ['net_connectToPeer', [ENODE]],
  ['net_listBlacklistedPeers', []],
  ['net_addToBlacklist', ['127.0.0.1']],
  ['net_removeFromBlacklist', ['127.0.0.1']],
  ['debug_listPeersInfo', []],
];

const call = async (url: string, method: string, params: unknown[] = []) =>
  (await post(url, request(method, params))).body;

describe('peering off (--no-p2p)', () => {
  let node: NodeProcess;
  beforeAll(async () => {
    node = await startNode({ args: ['--no-p2p'] });
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('answers every peer method with -32002 saying how to turn peering on', async () => {
    for (const [method, params] of PEER_METHODS) {
      const { error } = await call(node.url, method, params);
      expect(error, method).toEqual({
        code: -32002,
        message:
          'Peering is off on this node: restart it with --p2p (network.p2p.enabled = true); test mode turns it off by default.',
      });
    }
  });

  it('still counts zero peers, is not listening or syncing, and logs no enode', async () => {
    expect((await call(node.url, 'net_peerCount')).result).toBe('0x0');
    expect((await call(node.url, 'net_listening')).result).toBe(false);
    expect((await call(node.url, 'eth_syncing')).result).toBe(false);
    expect(node.enode).toBeUndefined();
    expect(node.p2pPort).toBeUndefined();
    expect(node.logs.find((l) => l.msg === 'listening')).not.toHaveProperty('enode');
  });

  it('checks the enode shape before anything else: a malformed URL is -32602 naming the parameter', async () => {
    const { error } = await call(node.url, 'net_connectToPeer', [`enode://${NODE_ID.slice(1)}@127.0.0.1:30303`]);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/^invalid params: enode \(param 1\) must be a devp2p node URL: .*; got "/);
  });
});

/** A peer service whose answers the test sets, and which records what it was asked. */
class StandInPeers implements PeerService {
  readonly enode = ENODE;
  readonly listenPort = 30303;
  details: PeerDetails[] = [];
  entries: BlacklistEntry[] = [];
  progress: SyncProgress | null = null;
  readonly dialled: string[] = [];
  readonly blocked: Array<[string, number | null, string]> = [];
  readonly listeners = new Set<(event: SyncEvent) => void>();

  hasConfiguredPeers = () => this.dialled.length > 0;
  peerCount = () => this.details.filter((p) => p.status === 'Handshaked').length;
  peers = () =>
    this.details.map(({ id, remoteAddress, nodeId, incoming, status, foundBy, score }) => ({
      id,
      remoteAddress,
      nodeId,
      incoming,
      status,
      foundBy,
      score,
    }));
  search = () => ({
    discovery: false,
    udpPort: null,
    tableSize: 0,
    bootnodes: [],
    dnsTrees: [],
    dialsTried: 0,
    dialsSucceeded: 0,
    candidates: 0,
  });
  peerDetails = () => this.details;
  connect(enode: string): void {
    const port = Number(/:(\d+)$/.exec(enode)?.[1]);
    if (port > 65535) throw new PeerInputError(`Invalid peer URI ${enode}: port ${port} is above 65535`);
    this.dialled.push(enode);
  }
  disconnect = (id: string) => this.details.some((p) => p.id === id);
  blacklist = () => this.entries;
  addToBlacklist(address: string, seconds: number | null, reason: string): void {
    if (address === 'not-an-address') throw new PeerInputError(`Invalid peer address: ${address}`);
    this.blocked.push([address, seconds, reason]);
  }
  removeFromBlacklist = (address: string) => this.entries.some((e) => e.id === address);
  syncProgress = () => this.progress;
  onSyncEvent(listener: (event: SyncEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(event: SyncEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  close = async () => undefined;
}

describe('peer methods over a peer service', () => {
  const peers = new StandInPeers();
  let svc: SvcNode;
  let url: string;
  let wsUrl: string;
  let stop: () => Promise<void>;
  let datadir: string;

  beforeAll(async () => {
    datadir = mkdtempSync(join(tmpdir(), 'svc-node-peers-'));
    const quiet = new Writable({ write: (_c, _e, done) => done() });
    const outcome = await runCli(
      ['--datadir', datadir, '--http.port', '0', '--http.addr', '127.0.0.1', '--no-p2p', '--no-mine'],
      { NODE_ENV: 'test' },
      { stdout: quiet, stderr: process.stderr },
    );
    if ('exitCode' in outcome) throw new Error(`node did not start (exit ${outcome.exitCode})`);
    svc = outcome.node;
    svc.attachPeers(peers);
    url = outcome.server.url;
    wsUrl = outcome.server.wsUrl!;
    stop = () => outcome.stop();
  });
  afterAll(async () => {
    await stop?.();
    rmSync(datadir, { recursive: true, force: true });
  });

  it('lists peers and their details in the schema shapes, and counts the handshaked ones', async () => {
    peers.details = [
      {
        id: '127.0.0.1:30303',
        remoteAddress: '127.0.0.1:30303',
        nodeId: NODE_ID,
        incoming: false,
        status: 'Handshaked',
        foundBy: 'discovery',
        score: 100,
        clientId: 'svc-node/v0.1.0',
        capabilities: ['eth/68', 'snap/1'],
        networkId: 1337n,
        genesisHash: new Uint8Array(32).fill(0xab),
        bestHash: new Uint8Array(32).fill(0x01),
        maxBlockNumber: 300n,
        totalDifficulty: 0x20000n,
        forkAccepted: true,
      },
      {
        id: '127.0.0.1:51234',
        remoteAddress: '127.0.0.1:51234',
        nodeId: null,
        incoming: true,
        status: 'Handshaking',
        foundBy: 'inbound',
        score: null,
        clientId: null,
        capabilities: [],
        networkId: null,
        genesisHash: null,
        bestHash: null,
        maxBlockNumber: null,
        totalDifficulty: null,
        forkAccepted: null,
      },
    ];
    expect((await call(url, 'net_listPeers')).result).toEqual([
      {
        id: '127.0.0.1:30303',
        remoteAddress: '127.0.0.1:30303',
        nodeId: NODE_ID,
        incomingConnection: false,
        status: 'Handshaked',
        foundBy: 'discovery',
        score: 100,
      },
      {
        id: '127.0.0.1:51234',
        remoteAddress: '127.0.0.1:51234',
        nodeId: null,
        incomingConnection: true,
        status: 'Handshaking',
        foundBy: 'inbound',
        score: null,
      },
    ]);
    const info = (await call(url, 'debug_listPeersInfo')).result;
    expect(info[0]).toEqual({
      id: '127.0.0.1:30303',
      remoteAddress: '127.0.0.1:30303',
      nodeId: NODE_ID,
      incomingConnection: false,
      status: 'Handshaked',
      foundBy: 'discovery',
      score: 100,
      clientId: 'svc-node/v0.1.0',
      capabilities: ['eth/68', 'snap/1'],
      networkId: '0x539',
      genesisHash: `0x${'ab'.repeat(32)}`,
      bestBlockHash: `0x${'01'.repeat(32)}`,
      maxBlockNumber: '0x12c',
      totalDifficulty: '0x20000',
      forkAccepted: true,
    });
    expect(info[1]).toMatchObject({
      nodeId: null,
      clientId: null,
      networkId: null,
      genesisHash: null,
      forkAccepted: null,
    });
    expect((await call(url, 'net_peerCount')).result).toBe('0x1');
    expect((await call(url, 'net_disconnectPeer', ['127.0.0.1:30303'])).result).toBe(true);
    expect((await call(url, 'net_disconnectPeer', ['198.51.100.1:30303'])).result).toBe(false);
  });

  it('queues dials, and answers -32602 with the service message for a URL it cannot use', async () => {
    expect((await call(url, 'net_connectToPeer', [ENODE])).result).toBe(true);
    expect(peers.dialled).toEqual([ENODE]);
    const { error } = await call(url, 'net_connectToPeer', [`enode://${NODE_ID}@127.0.0.1:70000`]);
    expect(error).toEqual({
      code: -32602,
      message: `Invalid peer URI enode://${NODE_ID}@127.0.0.1:70000: port 70000 is above 65535`,
    });
    expect(peers.dialled).toHaveLength(1);
  });

  it('blacklists with the default reason and a permanent duration, lists entries, unblocks', async () => {
    expect((await call(url, 'net_addToBlacklist', ['203.0.113.9', 3600, 'sent invalid blocks'])).result).toBe(true);
    expect((await call(url, 'net_addToBlacklist', [NODE_ID])).result).toBe(true);
    expect((await call(url, 'net_addToBlacklist', ['127.0.0.1:30303', null])).result).toBe(true);
    expect(peers.blocked).toEqual([
      ['203.0.113.9', 3600, 'sent invalid blocks'],
      [NODE_ID, null, 'added by operator'],
      ['127.0.0.1:30303', null, 'added by operator'],
    ]);
    const { error } = await call(url, 'net_addToBlacklist', ['not-an-address']);
    expect(error).toEqual({ code: -32602, message: 'Invalid peer address: not-an-address' });
    expect((await call(url, 'net_addToBlacklist', ['203.0.113.9', 0])).error.code).toBe(-32602); // duration ≥ 1

    peers.entries = [
      { id: NODE_ID, reason: 'added by operator', addedAt: 1765540800000, expiresAt: null },
      { id: '203.0.113.9', reason: 'sent invalid blocks', addedAt: 1765540800000, expiresAt: 1765544400000 },
    ];
    expect((await call(url, 'net_listBlacklistedPeers')).result).toEqual(peers.entries);
    expect((await call(url, 'net_removeFromBlacklist', [NODE_ID])).result).toBe(true);
    expect((await call(url, 'net_removeFromBlacklist', ['192.0.2.1'])).result).toBe(false);
  });

  it('eth_syncing and the syncing subscription follow the service; unsubscribing stops its listener', async () => {
    expect((await call(url, 'eth_syncing')).result).toBe(false);
    peers.progress = { startingBlock: 0n, currentBlock: 5n, highestBlock: 300n };
    expect((await call(url, 'eth_syncing')).result).toEqual({
      startingBlock: '0x0',
      currentBlock: '0x5',
      highestBlock: '0x12c',
    });
    peers.progress = null;

    const ws = await WsClient.open(wsUrl);
    const kept = (await ws.call('eth_subscribe', ['syncing'])).result;
    const dropped = (await ws.call('eth_subscribe', ['syncing'])).result;
    expect(kept).toMatch(/^0x[0-9a-f]+$/);
    expect(peers.listeners.size).toBe(2);
    expect((await ws.call('eth_unsubscribe', [dropped])).result).toBe(true);
    expect(peers.listeners.size).toBe(1);

    peers.emit({ syncing: true, status: { startingBlock: 0n, currentBlock: 5n, highestBlock: 300n } });
    peers.emit({ syncing: false });
    await until(() => ws.of(kept).length >= 2, 'two syncing notifications');
    expect(ws.of(kept)).toEqual([
      { syncing: true, status: { startingBlock: '0x0', currentBlock: '0x5', highestBlock: '0x12c' } },
      { syncing: false },
    ]);
    expect(ws.of(dropped)).toEqual([]);
    ws.close();
    await until(() => peers.listeners.size === 0, 'the closed connection to stop listening');
  });
});
