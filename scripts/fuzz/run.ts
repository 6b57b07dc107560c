/**
 * One fuzz run: starts a node (a process on a free loopback port), sends `count` cases (or as many as fit in
 * `seconds`) from a few concurrent workers over HTTP and WebSocket, then checks the node is alive and still
 * answers eth_blockNumber. Returns the figures; the caller decides how to print them.
 */
import { startNode, type NodeProcess } from '../../test/helpers/node-process.js';
import { loadMethods, makeCase, type FuzzCase } from './cases.js';
import { HttpSender, WsSender, judgeBody } from './transport.js';

export interface FuzzOptions {
  readonly seed: number;
  readonly count: number;
  /** Stop sending after this long even when `count` is not reached. */
  readonly seconds: number;
  /** First case index (to replay one case: `from: I, count: 1`). */
  readonly from?: number;
  readonly concurrency?: number;
  /** Extra node flags (e.g. `--testmode`). */
  readonly nodeArgs?: readonly string[];
  readonly repoRoot: string;
  /** Progress lines; silent when absent. */
  readonly progress?: (line: string) => void;
}

export interface FuzzFailure {
  readonly index: number;
  readonly kind: string;
  readonly method: string;
  readonly transport: string;
  readonly reason: string;
  readonly body: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly requests: number;
  readonly seconds: number;
  readonly byKind: Record<string, number>;
  readonly outcomes: Record<string, number>;
  readonly failures: FuzzFailure[];
  readonly failureCount: number;
  /** The node exited during the run (with its exit code or signal). */
  readonly crashed?: string;
  /** eth_blockNumber after the run, or why it failed. */
  readonly finalBlockNumber: { ok: boolean; detail: string };
  /** The node's `internal error` log lines (the -32603 causes, with stacks). */
  readonly faultLogs: unknown[];
  readonly passed: boolean;
}

const MAX_FAILURES_KEPT = 50;

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const methods = loadMethods(options.repoRoot);
  // Light scrypt (--lightkdf) for the keys the cases import and create: with the standard one every
  // personal_newAccount, importRawKey and passphrase signing cost ~1.3 s of CPU, most of a short run's; the
  // request handling the fuzzer tests is the same.
  const node: NodeProcess = await startNode({ args: [...(options.nodeArgs ?? []), '--no-p2p', '--lightkdf'] });
  let crashed: string | undefined;
  // The last log lines travel with the exit: a crash report that says only "exited with 1" leaves nothing to fix.
  node.child.once('exit', (code, signal) => {
    crashed = `exited with ${signal ?? code}; last log lines: ${JSON.stringify(node.logs.slice(-5))}`;
  });

  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const from = options.from ?? 0;
  const end = from + options.count;
  let nextIndex = from;
  let requests = 0;
  const byKind: Record<string, number> = {};
  const outcomes: Record<string, number> = {};
  const failures: FuzzFailure[] = [];
  let failureCount = 0;
  // Generous: personal_newAccount runs scrypt (about 1 s of CPU each) and a batch may hold several.
  const timeoutMs = 60_000;
  const http = new HttpSender(new URL(node.url), (options.concurrency ?? 6) + 2, timeoutMs);

  const record = (c: FuzzCase, outcome: { outcomes: string[]; failure?: string }) => {
    requests++;
    byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    for (const o of outcome.outcomes) outcomes[o] = (outcomes[o] ?? 0) + 1;
    if (outcome.failure === undefined) return;
    failureCount++;
    if (failures.length < MAX_FAILURES_KEPT) {
      const body = typeof c.body === 'string' ? c.body : c.body.toString('latin1');
      failures.push({
        index: c.index,
        kind: c.kind,
        method: c.method,
        transport: c.transport,
        reason: outcome.failure,
        body: body.slice(0, 300),
      });
    }
  };

  const worker = async () => {
    const ws = new WsSender(node.wsUrl, timeoutMs);
    try {
      while (nextIndex < end && performance.now() < deadline && crashed === undefined) {
        const c = makeCase(methods, options.seed, nextIndex++);
        record(c, c.transport === 'ws' ? await ws.send(c) : await http.send(c));
        if (requests % 5000 === 0)
          options.progress?.(
            `${requests} requests, ${failureCount} failures, ${((performance.now() - started) / 1000).toFixed(0)} s`,
          );
      }
    } finally {
      ws.close();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency ?? 6 }, worker));
    const seconds = (performance.now() - started) / 1000;
    const finalBlockNumber = await blockNumber(node.url, crashed);
    const faultLogs = node.logs.filter((l) => l.level === 'error' || l.level === 'fatal');
    // An error-level log line is a fault even when the client got a proper answer (e.g. a logged unhandled error).
    // And a run that sent nothing proves nothing.
    const passed =
      requests > 0 && crashed === undefined && failureCount === 0 && finalBlockNumber.ok && faultLogs.length === 0;
    return {
      seed: options.seed,
      requests,
      seconds,
      byKind,
      outcomes,
      failures,
      failureCount,
      ...(crashed ? { crashed } : {}),
      finalBlockNumber,
      faultLogs,
      passed,
    };
  } finally {
    http.close();
    await node.stop();
  }
}

async function blockNumber(url: string, crashed: string | undefined): Promise<{ ok: boolean; detail: string }> {
  if (crashed) return { ok: false, detail: `node ${crashed}` };
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const why = judgeBody(text, false, [], []);
    const result = (JSON.parse(text) as { result?: unknown }).result;
    if (res.status !== 200 || why || typeof result !== 'string')
      return { ok: false, detail: `HTTP ${res.status}: ${text.slice(0, 200)}` };
    return { ok: true, detail: result };
  } catch (err) {
    return { ok: false, detail: (err as Error).message };
  }
}
