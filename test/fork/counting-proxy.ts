/**
 * A loopback JSON-RPC proxy in front of a fork's upstream: it records every call the fork makes (method and
 * params), so a test can tell what the fork asked, and it can be switched to fail every request (HTTP 503).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  readonly url: string;
  /** Calls seen since the last `reset`, as `method params-json`. */
  readonly calls: string[];
  failing: boolean;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(upstreamUrl: string): Promise<CountingProxy> {
  const calls: string[] = [];
  const proxy: CountingProxy = {
    url: '',
    calls,
    failing: false,
    reset: () => calls.splice(0),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { method: string; params?: unknown[] };
      calls.push(`${parsed.method} ${JSON.stringify(parsed.params ?? [])}`);
      if (proxy.failing) {
        res.writeHead(503).end('upstream down for the test');
        return;
      }
      const answer = await fetch(upstreamUrl, {
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
