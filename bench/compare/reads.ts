/**
 * Read workloads through autocannon: single calls at several concurrencies and one 100-call eth_getBalance batch.
 * Per (workload, concurrency) every target gets the same runs, alternating the order between runs so drifting
 * machine load hits all alike; each target's first contact with a workload is a discarded warm-up.
 */
import { HOLDER } from './fixture.js';
import type { Fixture } from './fixture.js';
import type { RunningTarget } from './launcher.js';
import type { LoadGenerator } from './load-client.js';
import { CellRecorder, unavailableBecause, type Results } from './results.js';
import { MethodUnavailable, RpcFailure } from './rpc.js';
import { balanceOfCall } from './token.js';

export interface ReadTarget {
  readonly node: RunningTarget;
  /** Missing when the set-up transactions could not be sent (then eth_call and receipts are n/a). */
  readonly fixture: Fixture | undefined;
  readonly fixtureProblem?: string;
}

export interface ReadOptions {
  readonly concurrencies: readonly number[];
  readonly batchConcurrencies: readonly number[];
  readonly runs: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly log: (line: string) => void;
}

interface ReadWorkload {
  readonly name: string;
  /** The request body, or why this target cannot take it. */
  readonly body: (t: ReadTarget) => string | { missing: string };
}

const single = (method: string, params: (t: ReadTarget) => unknown[] | { missing: string }): ReadWorkload => ({
  name: method,
  body: (t) => {
    const p = params(t);
    return Array.isArray(p) ? JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: p }) : p;
  },
});

const needsFixture = (t: ReadTarget) => ({ missing: `no ERC-20 fixture: ${t.fixtureProblem ?? 'not prepared'}` });

export const singleCallWorkloads: readonly ReadWorkload[] = [
  single('eth_blockNumber', () => []),
  single('eth_chainId', () => []),
  single('eth_getBalance', () => [HOLDER, 'latest']),
  single('eth_call', (t) => (t.fixture ? [balanceOfCall(t.fixture.token, HOLDER), 'latest'] : needsFixture(t))),
  single('eth_getTransactionReceipt', (t) => (t.fixture ? [t.fixture.receiptHash] : needsFixture(t))),
];

/** 100 distinct addresses: the 10 test accounts' neighbours are irrelevant, only the lookups count. */
const batchAddresses = Array.from({ length: 100 }, (_, i) => `0x${(0x1000 + i).toString(16).padStart(40, '0')}`);
export const batchWorkload: ReadWorkload = {
  name: 'batch of 100 eth_getBalance',
  body: () =>
    JSON.stringify(
      batchAddresses.map((address, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'eth_getBalance',
        params: [address, 'latest'],
      })),
    ),
};

/** Sends the body once and checks every reply carries a non-null result. */
async function verify(node: RunningTarget, body: string): Promise<void> {
  const parsed = await node.rpc.post(body);
  const replies = (Array.isArray(parsed) ? parsed : [parsed]) as Array<{
    result?: unknown;
    error?: { code: number; message: string };
  }>;
  for (const reply of replies) {
    const method = (JSON.parse(body) as { method?: string }).method ?? 'eth_getBalance';
    if (reply.error) {
      if (reply.error.code === -32004 || reply.error.code === -32601)
        throw new MethodUnavailable(method, reply.error.message);
      throw new RpcFailure(method, reply.error.code, reply.error.message);
    }
    if (reply.result === null || reply.result === undefined) throw new Error(`${method} answered null`);
  }
}

async function measure(
  results: Results,
  section: string,
  unit: string,
  workload: ReadWorkload,
  concurrencies: readonly number[],
  targets: readonly ReadTarget[],
  load: LoadGenerator,
  options: ReadOptions,
): Promise<void> {
  const ready: Array<{ target: ReadTarget; body: string }> = [];
  for (const t of targets) {
    const body = workload.body(t);
    const fail = (why: string) => {
      for (const c of concurrencies)
        results.set(section, label(workload, c), unit, true, t.node.target.id, { unavailable: why });
    };
    if (typeof body !== 'string') {
      fail(body.missing);
      continue;
    }
    try {
      await verify(t.node, body);
      await load.run({ url: t.node.url, body, connections: concurrencies.at(-1)!, seconds: options.warmupSeconds });
      ready.push({ target: t, body });
    } catch (err) {
      fail(unavailableBecause(err).unavailable);
    }
  }
  for (const c of concurrencies) {
    const recorders = new Map(ready.map((r) => [r.target.node.target.id, new CellRecorder()]));
    for (let run = 0; run < options.runs; run++) {
      const order = run % 2 ? [...ready].reverse() : ready;
      for (const { target, body } of order) {
        const r = await load.run({ url: target.node.url, body, connections: c, seconds: options.seconds });
        if (r.failed > 0) options.log(`  ${target.node.target.id}: ${r.failed} failed requests (not counted)`);
        recorders.get(target.node.target.id)!.add({ value: r.requestsPerSecond, p50Ms: r.p50Ms, p99Ms: r.p99Ms });
      }
    }
    for (const { target } of ready) {
      const figure = recorders.get(target.node.target.id)!.figure();
      if (figure.value === 0) {
        const why = `no request completed within any ${options.seconds} s run`;
        results.set(section, label(workload, c), unit, true, target.node.target.id, { unavailable: why });
        options.log(`  ${label(workload, c)} ${target.node.target.id}: ${why}`);
        continue;
      }
      results.set(section, label(workload, c), unit, true, target.node.target.id, figure);
      options.log(
        `  ${label(workload, c)} ${target.node.target.id}: ${Math.round(figure.value)} ${unit}, p50 ${figure.p50Ms?.toFixed(2)} ms, p99 ${figure.p99Ms?.toFixed(2)} ms`,
      );
    }
  }
}

const label = (workload: ReadWorkload, c: number) => `${workload.name} ×${c}`;

export async function runReads(
  results: Results,
  targets: readonly ReadTarget[],
  load: LoadGenerator,
  options: ReadOptions,
): Promise<void> {
  for (const workload of singleCallWorkloads) {
    options.log(`reads: ${workload.name}`);
    await measure(results, 'Reads', 'req/s', workload, options.concurrencies, targets, load, options);
  }
  options.log(`reads: ${batchWorkload.name}`);
  await measure(results, 'Batch', 'batches/s', batchWorkload, options.batchConcurrencies, targets, load, options);
}
