/**
 * `GET /metrics` on a dev node process: scrape, do things (mine a block through eth_sendTransaction, open a
 * WebSocket with a subscription, install a filter, call an unknown method), scrape again, and see each metric
 * move by exactly what was done. Every exposition goes through a strict text-format parser; the parser itself
 * is checked against malformed input so that a lax parser cannot hide a bad exposition.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { loadConfig } from '../../src/node/config.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';
import { parsePrometheusText, sampleValue, type MetricFamily } from '../helpers/prometheus-text.js';

let node: NodeProcess;
beforeAll(async () => {
  node = await startNode();
});
afterAll(async () => {
  await node?.stop();
});

async function scrape(url = node.url): Promise<Map<string, MetricFamily>> {
  const res = await fetch(new URL('/metrics', url));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.text());
}

async function rpc(method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number } }> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as never;
}

const value = (m: Map<string, MetricFamily>, name: string, labels?: Record<string, string>) =>
  sampleValue(m, name, labels) ?? 0;

describe('GET /metrics', () => {
  it('exposes node, chain, RPC and process metrics with their types', async () => {
    const m = await scrape();
    const types = Object.fromEntries([...m.values()].map((f) => [f.name, f.type]));
    expect(types).toMatchObject({
      svc_node_info: 'gauge',
      svc_head_block_number: 'gauge',
      svc_peers: 'gauge',
      svc_txpool_transactions: 'gauge',
      svc_filters: 'gauge',
      svc_ws_connections: 'gauge',
      svc_ws_subscriptions: 'gauge',
      svc_datadir_size_bytes: 'gauge',
      svc_seal_check_waits: 'gauge',
      svc_blocks_imported_total: 'counter',
      svc_blocks_mined_total: 'counter',
      svc_chain_reorgs_total: 'counter',
      svc_chain_reorg_dropped_blocks_total: 'counter',
      svc_block_import_duration_seconds: 'histogram',
      svc_block_seal_duration_seconds: 'histogram',
      svc_rpc_requests_total: 'counter',
      svc_rpc_errors_total: 'counter',
      svc_rpc_request_duration_seconds: 'histogram',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
    });
    expect(value(m, 'svc_node_info', { network: 'dev', chain_id: '1337' })).toBe(1);
    expect(value(m, 'svc_datadir_size_bytes')).toBeGreaterThan(0);
    expect(value(m, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('moves the head, import, seal, RPC, WebSocket and filter metrics by what was done', async () => {
    const before = await scrape();
    const head = value(before, 'svc_head_block_number');

    const ws = new WebSocket(node.wsUrl);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }));
    await new Promise((resolve) => ws.once('message', resolve));
    expect((await rpc('eth_newBlockFilter')).result).toMatch(/^0x/);
    expect((await rpc('no_suchMethod')).error?.code).toBe(-32601);
    const sent = await rpc('eth_sendTransaction', [
      { from: DEV_ACCOUNTS[3]!.address, to: DEV_ACCOUNTS[4]!.address, value: '0x1' },
    ]);
    expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);

    const after = await scrape();
    const delta = (name: string, labels?: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    expect(value(after, 'svc_head_block_number')).toBe(head + 1);
    expect(delta('svc_blocks_imported_total', { status: 'head' })).toBe(1);
    expect(delta('svc_blocks_mined_total')).toBe(1);
    expect(delta('svc_block_import_duration_seconds_count')).toBe(1);
    expect(delta('svc_block_seal_duration_seconds_count')).toBe(1);
    expect(delta('svc_block_seal_duration_seconds_sum')).toBeGreaterThan(0);
    expect(delta('svc_rpc_requests_total', { method: 'eth_sendTransaction', transport: 'http' })).toBe(1);
    expect(delta('svc_rpc_requests_total', { method: 'eth_subscribe', transport: 'ws' })).toBe(1);
    expect(delta('svc_rpc_request_duration_seconds_count', { method: 'eth_sendTransaction' })).toBe(1);
    expect(delta('svc_rpc_errors_total', { method: '(unknown)', code: '-32601' })).toBe(1);
    expect(delta('svc_rpc_errors_total', { method: 'eth_sendTransaction' })).toBe(0);
    expect(value(after, 'svc_ws_connections')).toBe(1);
    expect(value(after, 'svc_ws_subscriptions')).toBe(1);
    expect(value(after, 'svc_filters')).toBe(1);
    expect(value(after, 'svc_txpool_transactions', { state: 'pending' })).toBe(0);

    ws.close();
    await new Promise((resolve) => ws.once('close', resolve));
    await expect.poll(async () => value(await scrape(), 'svc_ws_connections')).toBe(0);
    expect(value(await scrape(), 'svc_ws_subscriptions')).toBe(0);
  });
});

describe('docs/grafana-dashboard.json', () => {
  it('queries only metrics the node exposes, through the datasource input, with unique panel ids', async () => {
    const dashboard = JSON.parse(readFileSync(`${repoRoot}docs/grafana-dashboard.json`, 'utf8')) as {
      __inputs: Array<{ name: string; pluginId: string }>;
      panels: Array<{ id: number; type: string; datasource?: { uid: string }; targets?: Array<{ expr: string }> }>;
    };
    expect(dashboard.__inputs).toEqual([expect.objectContaining({ name: 'DS_PROMETHEUS', pluginId: 'prometheus' })]);
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const exposed = await scrape();
    const queried = new Set<string>();
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, `panel ${panel.id}`).toBe('${DS_PROMETHEUS}');
      expect(panel.targets?.length, `panel ${panel.id}`).toBeGreaterThan(0);
      for (const { expr } of panel.targets!) {
        for (const [name] of expr.matchAll(/\b(svc|process|nodejs)_[a-z0-9_]+/g)) queried.add(name);
      }
    }
    const missing = [...queried].filter(
      (name) => ![name, name.replace(/_(bucket|sum|count)$/, '')].some((n) => exposed.has(n)),
    );
    expect(missing).toEqual([]);
    // Every node metric is on the dashboard somewhere.
    const svcFamilies = [...exposed.keys()].filter((n) => n.startsWith('svc_') && n !== 'svc_node_info');
    expect(svcFamilies.filter((n) => ![...queried].some((q) => q === n || q.startsWith(`${n}_`)))).toEqual([]);
  });
});

describe('the metrics setting', () => {
  it('is on by default on dev only; --metrics / --no-metrics and the environment override it', () => {
    expect(loadConfig({}).rpc.metrics.enabled).toBe(true);
    expect(loadConfig({ flags: { 'blockchains.network': 'mordor' } }).rpc.metrics.enabled).toBe(false);
    expect(
      loadConfig({ flags: { 'blockchains.network': 'etc', 'network.rpc.metrics.enabled': true } }).rpc.metrics.enabled,
    ).toBe(true);
    expect(loadConfig({ env: { SVC_NODE_NETWORK_RPC_METRICS_ENABLED: 'false' } }).rpc.metrics.enabled).toBe(false);
  });

  it('answers 404 at /metrics when off', async () => {
    const off = await startNode({ args: ['--no-metrics', '--no-p2p'] });
    try {
      const answer = await fetch(new URL('/metrics', off.url));
      expect(answer.status).toBe(404);
      expect(await answer.text()).toMatch(/^metrics are off on this node: start it with --metrics/);
      expect((await fetch(new URL('/health', off.url))).status).toBe(200);
    } finally {
      await off.stop();
    }
  });
});

describe('the strict exposition parser', () => {
  const ok = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 3\n';
  it('reads a well-formed exposition', () => {
    expect(sampleValue(parsePrometheusText(ok), 'a_total', { x: '1' })).toBe(3);
    expect(
      sampleValue(parsePrometheusText('# TYPE g gauge\ng{v="a\\"b\\\\c\\n"} -Inf\n'), 'g', { v: 'a"b\\c\n' }),
    ).toBe(-Infinity);
  });
  it.each([
    ['a sample without TYPE', 'b 1\n'],
    ['a family typed twice', '# TYPE a gauge\n# TYPE a gauge\n'],
    ['a duplicate series', '# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n'],
    ['a bad value', '# TYPE a gauge\na 1,5\n'],
    ['a bad escape', '# TYPE a gauge\na{x="\\t"} 1\n'],
    ['an unquoted label', '# TYPE a gauge\na{x=1} 1\n'],
    ['a negative counter', '# TYPE a counter\na -1\n'],
    ['no final newline', '# TYPE a gauge\na 1'],
    ['non-cumulative buckets', '# TYPE h histogram\nh_bucket{le="1"} 5\nh_bucket{le="+Inf"} 4\nh_sum 1\nh_count 4\n'],
    ['+Inf bucket unequal to count', '# TYPE h histogram\nh_bucket{le="+Inf"} 4\nh_sum 1\nh_count 5\n'],
  ])('rejects %s', (_what, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});
