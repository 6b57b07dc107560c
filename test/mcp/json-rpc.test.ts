/**
 * The agent protocol as plain JSON-RPC (MCP params wrapped in a one-element array), on a node with peering off:
 * one batch carries every MCP method next to eth_blockNumber, net_peerCount and eth_syncing, and its answers
 * agree; a block mined between two batches moves the numbers; WebSocket serves the same methods; the error cases
 * are -32602 naming the problem. A second node without `mcp` in its apis refuses the methods and /mcp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request, WsClient } from '../helpers/rpc.js';
import { batch, call, expectShape, reportLines, until } from './mcp-fixture.js';

const TOOLS = ['mcp_node_status', 'mcp_node_info', 'mcp_blockchain_info', 'mcp_sync_status', 'mcp_peer_list'];
const RESOURCES = [
  'svc://node/status',
  'svc://node/config',
  'svc://blockchain/latest',
  'svc://peers/connected',
  'svc://sync/status',
];
const PROMPTS = ['mcp_node_health_check', 'mcp_sync_troubleshooting', 'mcp_peer_management'];

let node: NodeProcess;
let noMcp: NodeProcess;

beforeAll(async () => {
  [node, noMcp] = await Promise.all([
    startNode({ args: ['--no-p2p', '--no-mine'] }),
    startNode({ args: ['--no-p2p', '--apis', 'eth,net'] }),
  ]);
});
afterAll(async () => {
  await Promise.all([node?.stop(), noMcp?.stop()]);
});

/** Every MCP method, then the JSON-RPC methods whose figures the MCP answers must match. */
const everything = (): Array<[string, unknown[]]> => [
  ['mcp_initialize', [{ protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'test', version: '1' } }]],
  ['tools/list', []],
  ...TOOLS.map((name): [string, unknown[]] => ['tools/call', [{ name, arguments: {} }]]),
  ['resources/list', [{}]],
  ...RESOURCES.map((uri): [string, unknown[]] => ['resources/read', [{ uri }]]),
  ['prompts/list', []],
  ...PROMPTS.map((name): [string, unknown[]] => ['prompts/get', [{ name }]]),
  ['eth_blockNumber', []],
  ['net_peerCount', []],
  ['eth_syncing', []],
  ['eth_getBlockByNumber', ['latest', false]],
];

/** The batch's answers by role; every one must be a result. */
async function runBatch() {
  const answers = await batch(node.url, everything());
  for (const answer of answers) expect(answer.error, JSON.stringify(answer)).toBeUndefined();
  const results = answers.map((a) => a.result);
  let i = 0;
  const take = (n: number) => results.slice(i, (i += n));
  const [initialize, toolList] = take(2);
  const toolResults = take(TOOLS.length);
  const [resourceList] = take(1);
  const documents = take(RESOURCES.length).map((r) => JSON.parse(r.contents[0].text));
  const [promptList] = take(1);
  const promptResults = take(PROMPTS.length);
  const [blockNumber, peerCount, syncing, head] = take(4);
  const [status, info, chain, sync, peers] = toolResults.map((r) => r.structuredContent);
  const [statusDoc, configDoc, latestDoc, peersDoc, syncDoc] = documents;
  return {
    initialize,
    toolList,
    toolResults,
    resourceList,
    promptList,
    promptResults,
    status,
    info,
    chain,
    sync,
    peers,
    statusDoc,
    configDoc,
    latestDoc,
    peersDoc,
    syncDoc,
    blockNumber: Number(blockNumber),
    peerCount: Number(peerCount),
    syncing,
    head,
  };
}

describe('MCP over JSON-RPC', () => {
  it('answers one batch of every MCP method with live figures that agree with eth_blockNumber, net_peerCount and eth_syncing', async () => {
    const first = await runBatch();
    expect(first.initialize).toMatchObject({
      protocolVersion: '2024-11-05',
      capabilities: { tools: {}, resources: {}, prompts: {} },
      serverInfo: { name: 'svc-node' },
    });
    expect(first.toolList.tools.map((t: { name: string }) => t.name)).toEqual(TOOLS);
    expect(first.resourceList.resources.map((r: { uri: string }) => r.uri)).toEqual(RESOURCES);
    expect(first.promptList.prompts.map((p: { name: string }) => p.name)).toEqual(PROMPTS);
    for (const result of first.promptResults) expect(result.messages[0].role).toBe('user');

    // Peering is off: no peers, not syncing, and the reports say why.
    expect(first.peerCount).toBe(0);
    expect(first.syncing).toBe(false);
    expect(first.status).toMatchObject({
      syncing: false,
      syncState: 'not_syncing',
      peering: false,
      bestBlock: first.blockNumber,
      handshakedPeers: 0,
    });
    expect(reportLines(first.toolResults[0].content[0].text).get('Sync State')).toBe('Not syncing (peering is off)');
    expect(first.sync).toEqual({ syncing: false, mode: 'idle', status: 'not_syncing', bestBlock: first.blockNumber });
    expect(first.peers).toEqual({ peering: false, count: 0, handshakedCount: 0, peers: [] });
    expect(first.info).toMatchObject({ enode: null, p2pPort: null });
    expect(first.chain).toMatchObject({ bestBlockNumber: first.blockNumber, bestBlockHash: first.head.hash });
    expect(first.latestDoc).toMatchObject({ number: first.blockNumber, hash: first.head.hash });
    expect(first.statusDoc).toEqual(first.status);
    expect(first.syncDoc).toEqual(first.sync);
    expect(first.peersDoc).toEqual(first.peers);
    expectShape('McpNodeConfig', first.configDoc);
    expect(first.configDoc).toMatchObject({ p2p: { enabled: false }, mining: { enabled: false } });

    await call(node.url, 'qa_mineBlocks', [2]);
    await until(
      async () => Number(await call(node.url, 'eth_blockNumber')) === first.blockNumber + 2,
      'two ordered blocks',
    );
    const second = await runBatch();
    expect(second.blockNumber).toBe(first.blockNumber + 2);
    expect(second.status.bestBlock).toBe(second.blockNumber);
    expect(second.sync.bestBlock).toBe(second.blockNumber);
    expect(second.chain).toMatchObject({ bestBlockNumber: second.blockNumber, bestBlockHash: second.head.hash });
    expect(second.latestDoc).toMatchObject({
      number: second.blockNumber,
      hash: second.head.hash,
      parentHash: second.head.parentHash,
    });
    expect(reportLines(second.toolResults[2].content[0].text).get('Best Block Number')).toBe(
      String(second.blockNumber),
    );
    for (const doc of [second.statusDoc, second.syncDoc]) expect(doc.bestBlock).toBe(second.blockNumber);
    expectShape('McpLatestBlock', second.latestDoc);
  });

  it('serves the same methods over WebSocket', async () => {
    const ws = await WsClient.open(node.wsUrl);
    try {
      expect((await ws.call(request('mcp_initialize', []))).result.protocolVersion).toBe('2024-11-05');
      const { result } = await ws.call(request('tools/call', [{ name: 'mcp_node_status' }]));
      expect(result.structuredContent.bestBlock).toBe(Number(await call(node.url, 'eth_blockNumber')));
      const read = await ws.call(request('resources/read', [{ uri: 'svc://sync/status' }]));
      expect(JSON.parse(read.result.contents[0].text)).toMatchObject({ mode: 'idle' });
    } finally {
      ws.close();
    }
  });

  it('answers unknown names and bad arguments with -32602 errors that name the problem', async () => {
    const answers = await batch(node.url, [
      ['tools/call', [{ name: 'mcp_no_such_tool' }]],
      ['resources/read', [{ uri: 'svc://no/such' }]],
      ['prompts/get', [{ name: 'mcp_no_such_prompt' }]],
      ['tools/call', [{ name: 'mcp_node_status', arguments: { verbose: true } }]],
      ['prompts/get', [{ name: 'mcp_node_health_check', arguments: { depth: 'full' } }]],
      ['tools/call', [{ arguments: {} }]],
      ['resources/read', [{}]],
      ['tools/call', [{ name: 'mcp_node_status', arguments: 'all' }]],
      ['tools/call', []],
    ]);
    const errors = answers.map((a) => a.error);
    for (const error of errors) expect(error?.code).toBe(-32602);
    expect(errors[0].message).toBe('Unknown tool: mcp_no_such_tool. Call tools/list for the available tools.');
    expect(errors[1].message).toBe('Unknown resource: svc://no/such. Call resources/list for the available resources.');
    expect(errors[2].message).toBe('Unknown prompt: mcp_no_such_prompt. Call prompts/list for the available prompts.');
    expect(errors[3].message).toBe(
      "Invalid arguments for tool mcp_node_status: unexpected argument 'verbose'; this tool takes no arguments. Call tools/list for its input schema.",
    );
    expect(errors[4].message).toMatch(
      /^Invalid arguments for prompt mcp_node_health_check: unexpected argument 'depth'/,
    );
    expect(errors[5].message).toBe('invalid params: request (param 1) is missing the required field "name"');
    expect(errors[6].message).toBe('invalid params: request (param 1) is missing the required field "uri"');
    expect(errors[7].message).toBe('invalid params: request (param 1) field arguments must be an object; got "all"');
    expect(errors[8].message).toBe(
      'invalid params: request (param 1) is missing: tools/call takes 1 parameter (request), got 0',
    );

    // MCP's own form (a params object instead of an array) is refused with the way to send it.
    const objectParams = await post(node.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'mcp_node_status' },
    });
    expect(objectParams.body.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('send "params" as an array'),
    });
  });
});

describe('a node without mcp in its apis', () => {
  it('refuses the methods with -32601 and /mcp with 404 saying how to enable it', async () => {
    const { body } = await post(noMcp.url, request('tools/list', []));
    expect(body.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('the mcp namespace is not enabled'),
    });
    const res = await fetch(new URL('mcp', noMcp.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(request('tools/list', [])),
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(
      /add mcp to network\.rpc\.apis/,
    );
  });
});
