/**
 * The MCP core on states a single dev node never reaches by itself: a peer service that is catching up and holds
 * peers in several states (a stand-in, as in test/rpc/net-peers.test.ts), a node without a chain engine, and a
 * TLS configuration whose password file must not leak. Checked through JSON-RPC where the figures must match
 * other methods, and against each tool's published outputSchema.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpHandlers } from '../../src/handlers/mcp/index.js';
import { McpUnavailableError, callTool, listTools, readResource } from '../../src/mcp/index.js';
import { resources } from '../../src/mcp/resources.js';
import { SvcNode } from '../../src/node/node.js';
import type { BlacklistEntry, PeerDetails, PeerService, SyncEvent, SyncProgress } from '../../src/p2p/types.js';
import { runCli } from '../../src/cli/cli.js';
import { loadConfig } from '../../src/node/config.js';
import { RpcError } from '../../src/rpc/errors.js';
import { createLogger } from '../../src/node/logger.js';
import { call, expectShape, reportLines } from './mcp-fixture.js';

const NODE_ID =
  'e3bfa9b623cc977137f97334582646ff44877d1ea7a136d9d2b19686f84fa984cc42d83165c26440ebabf7eced7886c23da678f59790b70b4d8df328995e303c';
const quiet = () => new Writable({ write: (_c, _e, done) => done() });

/** A peer service whose table and sync progress the test sets. */
class StandInPeers implements PeerService {
  readonly enode = `enode://${NODE_ID}@127.0.0.1:30303`;
  readonly listenPort = 30303;
  details: PeerDetails[] = [];
  progress: SyncProgress | null = null;
  hasConfiguredPeers = () => true;
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
  connect = () => undefined;
  disconnect = () => false;
  blacklist = (): BlacklistEntry[] => [];
  addToBlacklist = () => undefined;
  removeFromBlacklist = () => false;
  syncProgress = () => this.progress;
  onSyncEvent = (_listener: (event: SyncEvent) => void) => () => undefined;
  close = async () => undefined;
}

const peerDetails = (over: Partial<PeerDetails> & Pick<PeerDetails, 'id' | 'status' | 'incoming'>): PeerDetails => ({
  remoteAddress: over.id,
  foundBy: over.incoming ? 'inbound' : 'static',
  score: null,
  nodeId: null,
  clientId: null,
  capabilities: [],
  networkId: null,
  genesisHash: null,
  bestHash: null,
  maxBlockNumber: null,
  totalDifficulty: null,
  forkAccepted: null,
  ...over,
});

describe('a node whose peer service is catching up', () => {
  const peers = new StandInPeers();
  let datadir: string;
  let node: SvcNode;
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    datadir = mkdtempSync(join(tmpdir(), 'svc-node-mcp-'));
    const outcome = await runCli(
      [
        '--datadir',
        datadir,
        '--http.port',
        '0',
        '--http.addr',
        '127.0.0.1',
        '--no-p2p',
        '--no-mine',
        '--ethash.cachedir',
        join(tmpdir(), 'svc-node-test-ethash'),
      ],
      { NODE_ENV: 'test' },
      { stdout: quiet(), stderr: process.stderr },
    );
    if ('exitCode' in outcome) throw new Error(`node did not start (exit ${outcome.exitCode})`);
    node = outcome.node;
    node.attachPeers(peers);
    url = outcome.server.url;
    stop = () => outcome.stop();
  });
  afterAll(async () => {
    await stop?.();
    rmSync(datadir, { recursive: true, force: true });
  });

  const tool = async (name: string) => {
    const result = await call(url, 'tools/call', [{ name }]);
    return { text: result.content[0].text as string, data: result.structuredContent };
  };

  it('reports a running sync with eth_syncing figures, and a peer table sorted by id in net_listPeers terms', async () => {
    peers.progress = { startingBlock: 0n, currentBlock: 5n, highestBlock: 300n };
    peers.details = [
      peerDetails({ id: '127.0.0.1:51234', status: 'Handshaking', incoming: true }),
      peerDetails({
        id: '127.0.0.1:30303',
        status: 'Handshaked',
        incoming: false,
        nodeId: NODE_ID,
        clientId: 'svc-node/v0.1.0',
        capabilities: ['eth/68', 'snap/1'],
        maxBlockNumber: 300n,
        totalDifficulty: 2n ** 70n,
      }),
    ];
    expect(await call(url, 'eth_syncing')).toEqual({
      startingBlock: '0x0',
      currentBlock: '0x5',
      highestBlock: '0x12c',
    });
    expect(await call(url, 'net_peerCount')).toBe('0x1');

    const status = await tool('mcp_node_status');
    expect(status.data).toMatchObject({
      syncing: true,
      syncState: 'syncing',
      startBlock: 0,
      currentBlock: 5,
      targetBlock: 300,
      peerCount: 2,
      handshakedPeers: 1,
      peering: true,
    });
    expect(reportLines(status.text).get('Sync State')).toBe('Syncing (from block 0)');
    expect(reportLines(status.text).get('Sync Progress')).toBe('Block 5/300 (1.66%)');

    const sync = await tool('mcp_sync_status');
    expect(sync.data).toEqual({
      syncing: true,
      mode: 'full',
      status: 'syncing',
      bestBlock: Number(await call(url, 'eth_blockNumber')),
      startingBlock: 0,
      currentBlock: 5,
      targetBlock: 300,
      remainingBlocks: 295,
      progressPercent: 1.66,
    });
    expect(reportLines(sync.text).get('Remaining Blocks')).toBe('295');

    const list = await tool('mcp_peer_list');
    expect(list.data.count).toBe((await call(url, 'net_listPeers')).length);
    expect(list.data).toMatchObject({ peering: true, handshakedCount: 1 });
    expect(list.data.peers).toEqual([
      {
        id: '127.0.0.1:30303',
        address: '127.0.0.1:30303',
        direction: 'outbound',
        status: 'handshaked',
        nodeId: NODE_ID,
        clientId: 'svc-node/v0.1.0',
        capabilities: ['eth/68', 'snap/1'],
        bestBlock: 300,
        totalDifficulty: (2n ** 70n).toString(),
        foundBy: 'static',
        score: null,
      },
      {
        id: '127.0.0.1:51234',
        address: '127.0.0.1:51234',
        direction: 'inbound',
        status: 'handshaking',
        nodeId: null,
        clientId: null,
        capabilities: [],
        bestBlock: null,
        totalDifficulty: null,
        foundBy: 'inbound',
        score: null,
      },
    ]);
    expect(list.text.split('\n')).toEqual([
      'Connected Peers: 2 (1 handshaked)',
      '  127.0.0.1:30303: outbound, handshaked, node e3bfa9b6…303c, svc-node/v0.1.0, best block 300',
      '  127.0.0.1:51234: inbound, handshaking',
    ]);
    expect(
      JSON.parse((await call(url, 'resources/read', [{ uri: 'svc://peers/connected' }])).contents[0].text),
    ).toEqual(list.data);
  });

  it('says synced once the sync is over', async () => {
    peers.progress = null;
    expect(await call(url, 'eth_syncing')).toBe(false);
    const status = await tool('mcp_node_status');
    expect(status.data).toMatchObject({ syncing: false, syncState: 'synced' });
    expect(status.data).not.toHaveProperty('targetBlock');
    expect(reportLines(status.text).get('Sync Progress')).toBe('Complete');
    expect((await tool('mcp_sync_status')).data).toMatchObject({ syncing: false, mode: 'regular', status: 'synced' });
  });

  it("publishes self-contained output schemas that the tools' structured content satisfies, and resources in their shapes, syncing or not", async () => {
    const ajv = new Ajv({ strict: false });
    const { tools } = listTools();
    for (const syncing of [true, false]) {
      peers.progress = syncing ? { startingBlock: 10n, currentBlock: 20n, highestBlock: 40n } : null;
      for (const t of tools) {
        expect(JSON.stringify(t.outputSchema)).not.toContain('$ref');
        const validate = ajv.compile(t.outputSchema!);
        const { structuredContent } = callTool(node, t.name, {});
        expect(validate(structuredContent), `${t.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
      for (const r of resources) expectShape(r.component, JSON.parse(readResource(node, r.uri).contents[0]!.text));
    }
    peers.progress = null;
  });
});

describe('a node without a chain engine', () => {
  const node = new SvcNode(loadConfig({ flags: { 'network.p2p.enabled': false } }), createLogger({ stream: quiet() }));

  it('returns tool results flagged isError, and -32002 for resources that read the chain', async () => {
    const result = callTool(node, 'mcp_blockchain_info', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Error: Resource unavailable: the chain engine is not running' }],
      isError: true,
    });
    expect(callTool(node, 'mcp_node_info', {}).isError).toBeUndefined();
    expect(() => readResource(node, 'svc://blockchain/latest')).toThrow(McpUnavailableError);
    let thrown: unknown;
    try {
      await mcpHandlers['resources/read']([{ uri: 'svc://node/status' }], { node, transport: 'http' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    expect((thrown as RpcError).code).toBe(-32002);
    expect(JSON.parse(readResource(node, 'svc://node/config').contents[0]!.text)).toMatchObject({ network: 'dev' });
  });
});

describe('svc://node/config', () => {
  it('names the TLS keystore and its password file but never holds their content or any key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-node-mcp-tls-'));
    try {
      const passwordFile = join(dir, 'password.txt');
      writeFileSync(passwordFile, 'correct horse battery staple');
      const config = loadConfig({
        flags: {
          'network.rpc.http.mode': 'https',
          'network.rpc.http.certificate.keystore-path': join(dir, 'node.p12'),
          'network.rpc.http.certificate.password-file': passwordFile,
        },
      });
      const node = new SvcNode(config, createLogger({ stream: quiet() }));
      const text = readResource(node, 'svc://node/config').contents[0]!.text;
      expect(JSON.parse(text).rpc.http.certificate).toEqual({
        keystorePath: join(dir, 'node.p12'),
        keystoreType: 'pkcs12',
        passwordFile,
      });
      expect(text).not.toContain('correct horse');
      // Nor the dev accounts' mnemonic or first private key, which the node holds.
      expect(text).not.toContain('test test test');
      expect(text).not.toContain('ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
