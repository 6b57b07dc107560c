/**
 * A struct-logger trace leaves the engine as UTF-8 bytes and goes to the socket as bytes (src/rpc/raw-json.ts): over
 * HTTP (the direct route and the CORS route a browser's Origin takes) and WebSocket, alone and in a batch, the answer
 * is compact JSON as JSON.stringify writes it, with a content length that counts its bytes, sent as a text frame,
 * and the same on every transport.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { countdownRuntime, deployCode } from './evm-asm.js';
import { contractAt, sendScenario } from './scenario.js';

let node: NodeProcess;
let hash: string;

beforeAll(async () => {
  node = await startNode({ args: ['--no-p2p', '--http.cors', 'http://localhost:3000'] });
  [, hash] = await sendScenario(node.url, [
    { name: 'deploy countdown', data: deployCode(countdownRuntime), gas: 300_000 },
    { name: 'count down', to: contractAt(0), data: `0x${(20).toString(16).padStart(64, '0')}`, gas: 1_000_000 },
  ]);
}, 60_000);

afterAll(async () => {
  await node?.stop();
});

const struct = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'debug_traceTransaction', params: [hash, {}] });
const calls = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'debug_traceTransaction',
  params: [hash, { tracer: 'callTracer' }],
});
const chainId = (id: unknown) => ({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });

/** The raw answer over HTTP: its body's bytes and the content length it declared. */
async function overHttp(
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ bytes: Buffer; length: string | null }> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return { bytes: Buffer.from(await res.arrayBuffer()), length: res.headers.get('content-length') };
}

/** The raw answer over WebSocket, which must come as a text frame. */
async function overWs(body: unknown): Promise<string> {
  const socket = new WebSocket(node.wsUrl!);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  try {
    const answer = new Promise<{ data: WebSocket.RawData; binary: boolean }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no WebSocket answer within 10 s')), 10_000);
      socket.once('message', (data, binary) => {
        clearTimeout(timer);
        resolve({ data, binary });
      });
    });
    socket.send(JSON.stringify(body));
    const { data, binary } = await answer;
    expect(binary).toBe(false);
    return data.toString();
  } finally {
    socket.close();
  }
}

/** Compact JSON, as JSON.stringify writes it. */
const compact = (text: string): string => JSON.stringify(JSON.parse(text));

describe('a struct-logger trace sent as bytes', () => {
  it('is compact JSON with a byte-exact content length, the same over HTTP (both routes) and WebSocket', async () => {
    const { bytes, length } = await overHttp(struct(7));
    const text = bytes.toString('utf8');
    expect(Number(length)).toBe(bytes.length);
    expect(compact(text)).toBe(text);
    const answer = JSON.parse(text);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, result: { failed: false } });
    expect(answer.result.structLogs.length).toBeGreaterThan(100);
    const cors = await overHttp(struct(7), { origin: 'http://localhost:3000' });
    expect(cors.bytes.toString('utf8')).toBe(text);
    expect(Number(cors.length)).toBe(cors.bytes.length);
    expect(await overWs(struct(7))).toBe(text);
    // Another id (a string, escaped) around the same result.
    const other = (await overHttp(struct('a"ü'))).bytes.toString('utf8');
    expect(JSON.parse(other).id).toBe('a"ü');
    expect(JSON.parse(other).result).toEqual(answer.result);
  });

  it('goes in a batch beside other answers, in order, the same over HTTP and WebSocket', async () => {
    const batch = [struct(1), chainId(2), calls(3), struct('four')];
    const { bytes, length } = await overHttp(batch);
    const text = bytes.toString('utf8');
    expect(Number(length)).toBe(bytes.length);
    expect(compact(text)).toBe(text);
    const single = JSON.parse((await overHttp(struct(1))).bytes.toString('utf8'));
    const answers = JSON.parse(text);
    expect(answers.map((a: { id: unknown }) => a.id)).toEqual([1, 2, 3, 'four']);
    expect(answers[0]).toEqual(single);
    expect(answers[1].result).toBe('0x539');
    expect(answers[2].result).toMatchObject({ type: 'CALL', to: contractAt(0) });
    expect(answers[3].result).toEqual(single.result);
    expect(await overWs(batch)).toBe(text);
  });
});
