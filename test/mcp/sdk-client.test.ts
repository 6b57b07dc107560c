/**
 * The official MCP SDK client against /mcp on a real node that has a real peer: it lists tools, resources and
 * prompts, calls every tool and reads every resource, and every figure is checked against the JSON-RPC methods
 * called in the same test (eth_blockNumber, net_peerCount, net_listPeers, eth_syncing, eth_getBlockByNumber).
 * A block mined between two reads moves the numbers. Node A mines only on order (qa_mineBlocks); node B dials it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { call, expectShape, reportLines, until } from './mcp-fixture.js';

const TOOLS = ['mcp_node_status', 'mcp_node_info', 'mcp_blockchain_info', 'mcp_sync_status', 'mcp_peer_list'];
const RESOURCES = [
  'svc://node/status',
  'svc://node/config',
  'svc://blockchain/latest',
  'svc://peers/connected',
  'svc://sync/status',
];
const PROMPTS = ['mcp_node_health_check', 'mcp_sync_troubleshooting', 'mcp_peer_management'];

let a: NodeProcess;
let b: NodeProcess;
let client: Client;

const nodeIdOf = (enode: string) => /^enode:\/\/([0-9a-f]{128})@/.exec(enode)![1];

async function tool(name: string): Promise<{ text: string; data: any }> {
  const result = await client.callTool({ name, arguments: {} });
  expect(result.isError, name).toBeFalsy();
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return { text: content[0]!.text, data: result.structuredContent };
}

async function resource(uri: string): Promise<any> {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text);
}

beforeAll(async () => {
  [a, b] = await Promise.all([startNode({ args: ['--no-mine'] }), startNode({ args: ['--no-mine'] })]);
  await call(b.url, 'net_connectToPeer', [a.enode]);
  await until(async () => (await call(a.url, 'net_peerCount')) === '0x1', 'node B to link to node A');
  client = new Client({ name: 'svc-node-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('mcp', a.url)));
});

afterAll(async () => {
  await client?.close();
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('the official MCP SDK client on /mcp', () => {
  it('initialises: server name and package version, tools, resources and prompts, instructions', async () => {
    const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    expect(client.getServerVersion()).toEqual({ name: 'svc-node', version: pkg.version });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toMatch(/Ethereum Classic/);
  });

  it('lists five tools with JSON Schemas for input and output, five resources and three prompts, in order', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
      expect(t.outputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(t.annotations).toMatchObject({ readOnlyHint: true });
    }
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(RESOURCES);
    expect(resources.every((r) => r.mimeType === 'application/json' && r.name && r.description)).toBe(true);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(PROMPTS);
  });

  it('reports the same figures as eth_blockNumber, net_peerCount, net_listPeers and eth_syncing; a mined block moves them', async () => {
    const read = async () => {
      const [status, info, chain, sync, peers] = await Promise.all(TOOLS.map(tool));
      const [statusDoc, configDoc, latestDoc, peersDoc, syncDoc] = await Promise.all(RESOURCES.map(resource));
      return {
        status: status!,
        info: info!,
        chain: chain!,
        sync: sync!,
        peers: peers!,
        statusDoc,
        configDoc,
        latestDoc,
        peersDoc,
        syncDoc,
      };
    };
    const rpc = async () => ({
      blockNumber: Number(await call(a.url, 'eth_blockNumber')),
      peerCount: Number(await call(a.url, 'net_peerCount')),
      listPeers: await call<Array<{ id: string; nodeId: string | null; incomingConnection: boolean }>>(
        a.url,
        'net_listPeers',
      ),
      syncing: await call(a.url, 'eth_syncing'),
      head: await call(a.url, 'eth_getBlockByNumber', ['latest', false]),
      genesis: await call(a.url, 'eth_getBlockByNumber', ['0x0', false]),
    });

    const before = await read();
    const rpcBefore = await rpc();
    expect(rpcBefore.peerCount).toBe(1);
    expect(rpcBefore.syncing).toBe(false);

    // Tools: structured content in the openrpc.json shapes, the same figures in the text.
    for (const [name, component] of [
      ['status', 'McpNodeStatus'],
      ['info', 'McpNodeInfo'],
      ['chain', 'McpBlockchainInfo'],
      ['sync', 'McpSyncStatus'],
      ['peers', 'McpPeerList'],
    ] as const) {
      expectShape(component, before[name].data);
    }
    expect(before.status.data).toMatchObject({
      running: true,
      syncing: false,
      syncState: 'synced',
      peering: true,
      bestBlock: rpcBefore.blockNumber,
      handshakedPeers: rpcBefore.peerCount,
      peerCount: rpcBefore.listPeers.length,
      chainId: Number(await call(a.url, 'eth_chainId')),
      networkId: 1337,
    });
    expect(reportLines(before.status.text).get('Best Block')).toBe(String(rpcBefore.blockNumber));
    expect(reportLines(before.status.text).get('Peers')).toBe(
      `${rpcBefore.listPeers.length} total (${rpcBefore.peerCount} handshaked)`,
    );
    expect(before.info.data).toMatchObject({
      name: 'svc-node',
      clientVersion: await call(a.url, 'web3_clientVersion'),
      enode: a.enode,
      p2pPort: a.p2pPort,
    });
    expect(before.chain.data).toEqual({
      network: 'dev',
      networkName: 'Dev chain',
      chainId: 1337,
      bestBlockNumber: rpcBefore.blockNumber,
      bestBlockHash: rpcBefore.head.hash,
      totalDifficulty: BigInt(rpcBefore.head.totalDifficulty).toString(),
      genesisHash: rpcBefore.genesis.hash,
    });
    expect(reportLines(before.chain.text).get('Best Block Hash')).toBe(rpcBefore.head.hash);
    expect(before.sync.data).toEqual({
      syncing: false,
      mode: 'regular',
      status: 'synced',
      bestBlock: rpcBefore.blockNumber,
    });
    expect(before.peers.data.handshakedCount).toBe(rpcBefore.peerCount);
    expect(before.peers.data.peers.map((p: { id: string }) => p.id)).toEqual(
      rpcBefore.listPeers.map((p) => p.id).sort(),
    );
    expect(before.peers.data.peers[0]).toMatchObject({
      nodeId: nodeIdOf(b.enode!),
      direction: 'inbound',
      status: 'handshaked',
    });
    expect(before.peers.text).toContain(`Connected Peers: 1 (1 handshaked)`);

    // Resources: the same readers as the tools, plus the head block and the configuration.
    expect(before.statusDoc).toEqual(before.status.data);
    expect(before.peersDoc).toEqual(before.peers.data);
    expect(before.syncDoc).toEqual(before.sync.data);
    expectShape('McpLatestBlock', before.latestDoc);
    expect(before.latestDoc).toMatchObject({
      number: rpcBefore.blockNumber,
      hash: rpcBefore.head.hash,
      parentHash: rpcBefore.head.parentHash,
      miner: rpcBefore.head.miner,
      gasLimit: Number(rpcBefore.head.gasLimit),
      transactionCount: 0,
      stateRoot: rpcBefore.head.stateRoot,
    });
    expectShape('McpNodeConfig', before.configDoc);
    expect(before.configDoc).toMatchObject({
      network: 'dev',
      chainId: 1337,
      p2p: { enabled: true },
      mining: { enabled: false },
    });
    expect(before.configDoc.rpc.apis).toContain('mcp');

    // One block later.
    expect(await call(a.url, 'qa_mineBlocks', [1])).toMatchObject({ responseType: 'MiningOrdered' });
    await until(
      async () => Number(await call(a.url, 'eth_blockNumber')) === rpcBefore.blockNumber + 1,
      'the ordered block',
    );
    const after = await read();
    const rpcAfter = await rpc();
    expect(rpcAfter.blockNumber).toBe(rpcBefore.blockNumber + 1);
    expect(after.status.data.bestBlock).toBe(rpcAfter.blockNumber);
    expect(reportLines(after.status.text).get('Best Block')).toBe(String(rpcAfter.blockNumber));
    expect(after.chain.data).toMatchObject({
      bestBlockNumber: rpcAfter.blockNumber,
      bestBlockHash: rpcAfter.head.hash,
    });
    expect(BigInt(after.chain.data.totalDifficulty)).toBe(BigInt(rpcAfter.head.totalDifficulty));
    expect(BigInt(after.chain.data.totalDifficulty)).toBeGreaterThan(BigInt(before.chain.data.totalDifficulty));
    expect(after.chain.data.genesisHash).toBe(before.chain.data.genesisHash);
    expect(after.latestDoc).toMatchObject({
      number: rpcAfter.blockNumber,
      hash: rpcAfter.head.hash,
      parentHash: rpcBefore.head.hash,
    });
    expect(after.sync.data.bestBlock).toBe(rpcAfter.blockNumber);
    expect(after.syncDoc.bestBlock).toBe(rpcAfter.blockNumber);
    expect(after.status.data.handshakedPeers).toBe(rpcAfter.peerCount);
  });

  it('renders every prompt as one user message that names the tools', async () => {
    for (const name of PROMPTS) {
      const prompt = await client.getPrompt({ name });
      expect(prompt.messages).toHaveLength(1);
      expect(prompt.messages[0]!.role).toBe('user');
      const { text } = prompt.messages[0]!.content as { type: 'text'; text: string };
      expect(text).toMatch(/svc-node/);
      expect(text).toMatch(/mcp_(node_status|sync_status|peer_list)/);
    }
  });

  it('answers an unknown tool, resource or prompt and a bad argument with -32602 naming it', async () => {
    const refusal = async (request: Promise<unknown>) => {
      const error = (await request.then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: number; message?: string } | undefined;
      expect(error, 'expected a protocol error').toBeDefined();
      expect(error!.code).toBe(-32602);
      return error!.message!;
    };
    expect(await refusal(client.callTool({ name: 'mcp_no_such_tool', arguments: {} }))).toContain(
      'Unknown tool: mcp_no_such_tool. Call tools/list for the available tools.',
    );
    expect(await refusal(client.readResource({ uri: 'svc://no/such' }))).toContain('Unknown resource: svc://no/such.');
    expect(await refusal(client.getPrompt({ name: 'mcp_no_such_prompt' }))).toContain(
      'Unknown prompt: mcp_no_such_prompt.',
    );
    expect(await refusal(client.callTool({ name: 'mcp_peer_list', arguments: { limit: 5 } }))).toContain(
      "Invalid arguments for tool mcp_peer_list: unexpected argument 'limit'",
    );
    expect(await refusal(client.getPrompt({ name: 'mcp_peer_management', arguments: { focus: 'latency' } }))).toContain(
      "Invalid arguments for prompt mcp_peer_management: unexpected argument 'focus'",
    );
  });
});
