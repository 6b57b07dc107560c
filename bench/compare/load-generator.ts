/**
 * The load generator process: runs autocannon jobs sent by the harness over IPC and answers with requests per
 * second and latency percentiles. Latencies are taken from autocannon's per-response event at full
 * (sub-millisecond) resolution, because its histogram keeps whole milliseconds and fast calls would all read 0.
 */
import autocannon from 'autocannon';
import type { LoadJob, LoadResult } from './load-client.js';
import { percentile } from './stats.js';

// Every reply must carry a result: a JSON-RPC error still comes back as HTTP 200 and would count as served.
const answeredWithResult = (body: string) => body.includes('"result"') && !body.includes('"error"');

function run(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: job.url,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: job.body,
        connections: job.connections,
        duration: job.seconds,
        verifyBody: answeredWithResult,
      },
      (err: Error | null, result: autocannon.Result) => {
        if (err) return reject(err);
        const ok = result['2xx'] - result.mismatches;
        latencies.sort((a, b) => a - b);
        resolve({
          id: job.id,
          requestsPerSecond: ok / (result.duration || job.seconds),
          p50Ms: latencies.length ? percentile(latencies, 0.5) : undefined,
          p99Ms: latencies.length ? percentile(latencies, 0.99) : undefined,
          served: ok,
          failed: result.non2xx + result.errors + result.mismatches + result.timeouts,
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}

process.on('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send!(result),
    (err: Error) => process.send!({ id: job.id, error: err.message }),
  );
});
process.on('disconnect', () => process.exit(0));
