/**
 * Shared set-up of the logs, filters, subscriptions and svc tests: the whole node in-process (the same
 * `runCli` path as the binary, so the real config, engine, miner and RPC server), which lets a test reach
 * the engine to add transactions, mine on demand or import a side chain, while clients talk over HTTP/WS.
 * Also a tiny event emitter contract written by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TypedTransaction } from '@ethereumjs/tx';
import { keccak256, toUtf8Bytes } from 'ethers';
import WebSocket from 'ws';
import type { ChainEngine } from '../../src/chain/engine/engine.js';
import { runCli } from '../../src/cli/cli.js';
import type { RunningServer } from '../../src/server/server.js';
import { addresses, signedTx } from '../chain/engine/fixtures.js';

export { addresses, signedTx };

export interface InProcessNode {
  readonly engine: ChainEngine;
  readonly server: RunningServer;
  readonly url: string;
  readonly wsUrl: string;
  stop(): Promise<void>;
}

/** Starts a dev node in this process. `env` sets any `SVC_NODE_*` setting; mining is off unless `mine`. */
export async function startInProcessNode(
  opts: { mine?: boolean; env?: Record<string, string> } = {},
): Promise<InProcessNode> {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-logs-'));
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const args = ['--datadir', datadir, '--http.port', '0', '--http.addr', '127.0.0.1', '--p2p.port', '0'];
  const outcome = await runCli(
    args,
    { NODE_ENV: 'test', SVC_NODE_MINING_MINING_ENABLED: String(opts.mine === true), ...opts.env },
    { stdout: quiet, stderr: process.stderr },
  );
  if ('exitCode' in outcome) throw new Error(`node did not start (exit ${outcome.exitCode})`);
  const engine = outcome.node.engine!;
  return {
    engine,
    server: outcome.server,
    url: outcome.server.url,
    wsUrl: outcome.server.wsUrl!,
    async stop() {
      await outcome.stop();
      rmSync(datadir, { recursive: true, force: true });
    },
  };
}

/** `Ping(uint256 n)`: the emitter logs its 32-byte calldata as the event's data. */
export const PING_TOPIC = keccak256(toUtf8Bytes('Ping(uint256)'));
export const pingAbi = [
  { type: 'event', name: 'Ping', inputs: [{ name: 'n', type: 'uint256', indexed: false }], anonymous: false },
] as const;

/**
 * Runtime: MSTORE(0, CALLDATALOAD(0)); LOG1(0, 32, PING_TOPIC); STOP.
 * Init code: CODECOPY the 45-byte runtime that follows it to memory 0 and RETURN it.
 */
const runtime = `600035600052` + `7f${PING_TOPIC.slice(2)}` + `60206000a1` + `00`;
export const emitterInitCode = Buffer.from(`602d80600b6000396000f3${runtime}`, 'hex');

export const word = (n: number | bigint): Uint8Array => {
  const out = new Uint8Array(32);
  let v = BigInt(n);
  for (let i = 31; i >= 0 && v > 0n; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
};

/** Adds transactions to the pool in order. */
export async function addToPool(engine: ChainEngine, txs: readonly TypedTransaction[]): Promise<void> {
  for (const tx of txs) await engine.pool.add(tx);
}

/** Deploys the emitter (mining one block on demand) and returns its address. */
export async function deployEmitter(engine: ChainEngine, from = 0, nonce = 0n): Promise<Uint8Array> {
  const tx = signedTx(engine.chain, { from, nonce, data: emitterInitCode, gasLimit: 200_000n });
  await engine.pool.add(tx);
  const [mined] = await engine.miner.mineBlocks(1);
  const receipts = (await engine.chain.getReceipts(mined.block.hash()))!;
  const address = receipts[0]?.contractAddress;
  if (address === undefined) throw new Error('emitter not deployed');
  return address;
}

export const pingTx = (engine: ChainEngine, emitter: Uint8Array, nonce: bigint, n: number, from = 0) =>
  signedTx(engine.chain, { from, nonce, to: emitter, data: word(n), gasLimit: 60_000n });

export const hex = (bytes: Uint8Array): `0x${string}` => `0x${Buffer.from(bytes).toString('hex')}`;

/** Plain JSON-RPC over HTTP, for exact codes and messages. */
export async function rpc(
  url: string,
  method: string,
  params: unknown[] = [],
): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string; data?: any } };
}

/** A raw WebSocket JSON-RPC client that keeps every notification. */
export class WsClient {
  readonly notifications: Array<{ subscription: string; result: any }> = [];
  private nextId = 1;
  private readonly waiting = new Map<number, (msg: any) => void>();
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data));
      if (msg.method === 'eth_subscription') this.notifications.push(msg.params);
      else this.waiting.get(msg.id)?.(msg), this.waiting.delete(msg.id);
    });
  }

  static open(url: string): Promise<WsClient> {
    const socket = new WebSocket(url);
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  call(method: string, params: unknown[] = []): Promise<{ result?: any; error?: { code: number; message: string } }> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }

  of(subscription: string): any[] {
    return this.notifications.filter((n) => n.subscription === subscription).map((n) => n.result);
  }

  close(): void {
    this.socket.close();
  }
}

/** Polls `condition` until it holds or `timeoutMs` passes (then throws with `what`). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
