/**
 * A fork whose upstream turns hostile: a loopback proxy in front of a real svc-node dev upstream passes every call
 * through, except eth_getProof for one address, which it answers with a body that never ends (up to 768 MiB, written
 * as fast as the fork reads it). The fork must stop reading at fork.max-response-bytes (32 MiB by default), answer
 * the read that needed it with an error naming the upstream, the cap and the setting, stay within a bounded
 * resident set, and go on answering everything else.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post, request } from '../helpers/rpc.js';

const TARGET = '0x00000000000000000000000000000000000bad01';
const OTHER = '0x00000000000000000000000000000000000600d1';
/** What the hostile answer may reach: far past the cap, and bounded so that a test against an unbounded reader ends. */
const HOSTILE_BYTES = 768 * 1024 * 1024;
const MiB = 1024 * 1024;

let upstream: NodeProcess;
let fork: NodeProcess;
let proxy: Server;
let proxyUrl: string;
/** Bytes the proxy managed to write into hostile answers (the fork stops reading them, and the proxy stops). */
let hostileBytesWritten = 0;

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function streamEndless(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"jsonrpc":"2.0","id":1,"result":{"accountProof":["0x');
  const chunk = Buffer.alloc(MiB, '0');
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  while (!closed && hostileBytesWritten < HOSTILE_BYTES) {
    hostileBytesWritten += chunk.length;
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  if (!closed) res.end('"],"storageProof":[]}}');
}

function startHostileProxy(target: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { method, params } = JSON.parse(body) as { method: string; params?: unknown[] };
      if (method === 'eth_getProof' && String(params?.[0]).toLowerCase() === TARGET) return void streamEndless(res);
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The child's resident set now and at its peak, in MiB (Linux /proc). */
function rssOf(node: NodeProcess): { now: number; peak: number } {
  const status = readFileSync(`/proc/${node.child.pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
  return { now: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function rpc(url: string, method: string, params: unknown[] = []) {
  return (await post(url, request(method, params))).body;
}

beforeAll(async () => {
  upstream = await startNode({ args: ['--no-p2p'] });
  proxy = await startHostileProxy(upstream.url);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
  // No retries: the old reader would otherwise read the hostile answer five times over.
  fork = await startNode({ args: ['--no-p2p', '--fork-url', proxyUrl], env: { SVC_NODE_FORK_RETRIES: '0' } });
}, 60_000);

afterAll(async () => {
  await Promise.all([fork?.stop(), upstream?.stop()]);
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
});

describe('a fork whose upstream streams an endless answer', () => {
  it('refuses it past fork.max-response-bytes, naming the upstream, the cap and the setting, with memory bounded', async () => {
    // The first state read: the proofs of any other account would already hold the trie nodes on TARGET's path.
    expect((await rpc(fork.url, 'eth_chainId')).result).toBe('0x539');
    const before = rssOf(fork);
    const answer = await rpc(fork.url, 'eth_getBalance', [TARGET, 'latest']);
    const after = rssOf(fork);
    console.log(
      `fork RSS before ${before.now.toFixed(0)} MiB (peak ${before.peak.toFixed(0)}), after ${after.now.toFixed(0)} MiB ` +
        `(peak ${after.peak.toFixed(0)}); hostile bytes written ${(hostileBytesWritten / MiB).toFixed(0)} MiB`,
    );
    expect(answer.error?.code).toBe(-32000);
    expect(answer.error.message).toContain(`fork upstream ${proxyUrl} failed: eth_getProof`);
    expect(answer.error.message).toContain('32 MiB');
    expect(answer.error.message).toContain('fork.max-response-bytes');
    // The cap is 32 MiB; what reading it costs beyond that is a few copies at most. Unbounded, the peak passed 1 GiB.
    expect(after.peak - before.peak).toBeLessThan(256);
    // The proxy could write little past the cap before the fork dropped the connection (socket buffers, no more).
    expect(hostileBytesWritten).toBeLessThan(HOSTILE_BYTES / 4);
  }, 120_000);

  it('goes on answering: the chain id, and reads that do not need the hostile answer', async () => {
    expect((await rpc(fork.url, 'eth_chainId')).result).toBe('0x539');
    expect((await rpc(fork.url, 'eth_getBalance', [OTHER, 'latest'])).result).toBe('0x0');
  });
});
