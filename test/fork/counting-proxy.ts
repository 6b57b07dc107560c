/**
 * A loopback JSON-RPC proxy in front of a fork's upstream: it records every call the fork makes (method and
 * params; each call of a batch), so a test can tell what the fork asked; it can be switched to fail every request
 * (HTTP 503) or to another upstream.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Call {
  readonly method: string;
  readonly params?: unknown[];
}

export interface CountingProxy {
  readonly url: string;
  /** Calls seen since the last `reset`, as `method params-json`. */
  readonly calls: string[];
  failing: boolean;
  /** Where calls go: another node puts another chain behind the same URL. */
  upstream: string;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(upstreamUrl: string): Promise<CountingProxy> {
  const calls: string[] = [];
  const proxy: CountingProxy = {
    url: '',
    calls,
    failing: false,
    upstream: upstreamUrl,
    reset: () => calls.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as Call | Call[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed])
        calls.push(`${call.method} ${JSON.stringify(call.params ?? [])}`);
      if (proxy.failing) {
        res.writeHead(503).end('upstream down for the test');
        return;
      }
      const answer = await fetch(proxy.upstream, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(proxy, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
}
