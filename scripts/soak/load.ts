/**
 * The soak's mixed load, as independent loops that run until `stop()`:
 * - reads over HTTP: eth_blockNumber, eth_getBalance, eth_call (ERC-20 balanceOf), eth_getBlockByNumber
 *   (full transactions), eth_getTransactionReceipt of recent sends;
 * - sends: signed transfers (account 1) and token transfers (account 0, one Transfer log each), each
 *   answered once the dev chain's instant seal has mined it; eth_getLogs over the token's recent blocks;
 * - polled filters created and abandoned (eth_newFilter, eth_newBlockFilter: never polled again), and one
 *   filter polled all along (it must not expire);
 * - steady WebSocket clients holding newHeads and logs subscriptions, reading everything;
 * - vanishing WebSocket clients: connect, subscribe, destroy the socket (some before their eth_subscribe
 *   is answered);
 * - never-reading WebSocket clients: subscribe, stop reading (paused socket) and keep asking for large
 *   answers; the node must disconnect them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { Interface, Wallet, getAddress, type TransactionRequest } from 'ethers';
import WebSocket from 'ws';
import { call } from '../../test/helpers/rpc.js';

/** Dev accounts 0 and 1 of the well-known test mnemonic (never real funds). */
const KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
];
const CHAIN_ID = 1337n;
const artifact = JSON.parse(
  readFileSync(new URL('../../bench/contracts/BenchToken.json', import.meta.url), 'utf8'),
) as { abi: string[]; bytecode: string };
const token = new Interface(artifact.abi);

/** Counters of what the load did; `errors` by method and message (the first few of each). */
export class LoadStats {
  readonly calls = new Map<string, number>();
  readonly errors = new Map<string, number>();
  notifications = 0;
  sends = 0;
  vanishedClients = 0;
  neverReadingClients = 0;
  abandonedFilters = 0;
  count(method: string): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
  }
  fail(what: string, error: unknown): void {
    const key = `${what}: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
  get totalCalls(): number {
    let n = 0;
    for (const v of this.calls.values()) n += v;
    return n;
  }
  get totalErrors(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }
}

/** One call (test/helpers/rpc.ts `call`), counted in `stats`. */
export function rpc<T = unknown>(url: string, method: string, params: unknown[] = [], stats?: LoadStats): Promise<T> {
  stats?.count(method);
  return call<T>(url, method, params);
}

/** What the load needs of the chain: the token and the senders' next nonces. */
export interface LoadSetup {
  readonly tokenAddress: string;
  readonly gasPrice: bigint;
  readonly nonces: bigint[];
  readonly wallets: Wallet[];
}

async function sendSigned(
  url: string,
  setup: LoadSetup,
  from: number,
  tx: TransactionRequest,
  stats?: LoadStats,
): Promise<string> {
  const nonce = setup.nonces[from]!;
  const raw = await setup.wallets[from]!.signTransaction({
    type: 0,
    chainId: CHAIN_ID,
    gasPrice: setup.gasPrice,
    nonce: Number(nonce),
    ...tx,
  });
  setup.nonces[from] = nonce + 1n;
  return rpc<string>(url, 'eth_sendRawTransaction', [raw], stats);
}

/** Deploys the token (account 0 holds the supply). */
export async function setUpChain(url: string): Promise<LoadSetup> {
  const wallets = KEYS.map((k) => new Wallet(k));
  const gasPrice = BigInt(await rpc<string>(url, 'eth_gasPrice'));
  const nonces = await Promise.all(
    wallets.map(async (w) => BigInt(await rpc<string>(url, 'eth_getTransactionCount', [w.address, 'pending']))),
  );
  const setup: LoadSetup = { tokenAddress: '', gasPrice, nonces, wallets };
  const data = artifact.bytecode + token.encodeDeploy([10n ** 27n]).slice(2);
  const hash = await sendSigned(url, setup, 0, { data, gasLimit: 3_000_000 });
  const receipt = await rpc<{ status: string; contractAddress: string }>(url, 'eth_getTransactionReceipt', [hash]);
  if (receipt?.status !== '0x1') throw new Error('the token deployment failed');
  return { ...setup, tokenAddress: getAddress(receipt.contractAddress) };
}

export interface LoadOptions {
  readonly url: string;
  readonly wsUrl: string;
  readonly setup: LoadSetup;
  /** Steady WebSocket connections, each with `subscriptionsPerClient` subscriptions (half newHeads, half logs). */
  readonly steadyClients: number;
  readonly subscriptionsPerClient: number;
  /** Pauses between iterations of each loop (ms). */
  readonly filterEveryMs: number;
  readonly vanishEveryMs: number;
  readonly neverReadingEveryMs: number;
  readonly stats: LoadStats;
}

export interface Load {
  /** Subscriptions and connections the steady clients hold (what must remain once the churn is reclaimed). */
  readonly steadySubscriptions: number;
  readonly steadyConnections: number;
  /** Stops the loops (the steady clients and the never-reading ones stay open). */
  stopLoops(): Promise<void>;
  /** Closes the steady clients. */
  closeSteady(): Promise<void>;
  /** Destroys whatever client sockets are left (never-reading ones the node has not dropped yet). */
  destroyAll(): void;
}

function openSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      // Writes to a socket the node has dropped fail later: expected here, not a crash of the soak.
      ws.on('error', () => {});
      resolve(ws);
    });
    ws.once('error', reject);
  });
}

/** A steady client: subscribes, reads everything, answers come by id. */
class SteadyClient {
  private readonly waiting = new Map<number, (msg: { result?: unknown; error?: { message: string } }) => void>();
  private id = 1;
  constructor(
    readonly ws: WebSocket,
    stats: LoadStats,
  ) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as {
        id?: number;
        method?: string;
        result?: unknown;
        error?: { message: string };
      };
      if (msg.method === 'eth_subscription') stats.notifications++;
      else if (msg.id !== undefined) {
        this.waiting.get(msg.id)?.(msg);
        this.waiting.delete(msg.id);
      }
    });
  }
  call(method: string, params: unknown[]): Promise<unknown> {
    const id = this.id++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (msg) =>
        msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result),
      );
      this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }
}

export async function startLoad(opts: LoadOptions): Promise<Load> {
  const { url, wsUrl, setup, stats } = opts;
  let running = true;
  const loops: Promise<void>[] = [];
  const sockets = new Set<WebSocket>();
  const recentTxs: string[] = [];
  const logFilter = { address: setup.tokenAddress };

  const loop = (name: string, pauseMs: number, body: () => Promise<void>) => {
    loops.push(
      (async () => {
        while (running) {
          try {
            await body();
          } catch (error) {
            stats.fail(name, error);
            await sleep(200);
          }
          if (running && pauseMs > 0) await sleep(pauseMs);
        }
      })(),
    );
  };

  // Steady subscribers, opened before the loops start.
  const steady: SteadyClient[] = [];
  for (let i = 0; i < opts.steadyClients; i++) {
    const client = new SteadyClient(await openSocket(wsUrl), stats);
    for (let s = 0; s < opts.subscriptionsPerClient; s++) {
      await client.call('eth_subscribe', s % 2 === 0 ? ['newHeads'] : ['logs', logFilter]);
    }
    steady.push(client);
  }

  const holder = setup.wallets[0]!.address;
  const balanceOf = token.encodeFunctionData('balanceOf', [holder]);
  const reads: Array<() => Promise<unknown>> = [
    () => rpc(url, 'eth_blockNumber', [], stats),
    () => rpc(url, 'eth_getBalance', [setup.wallets[1]!.address, 'latest'], stats),
    () => rpc(url, 'eth_call', [{ to: setup.tokenAddress, data: balanceOf }, 'latest'], stats),
    () => rpc(url, 'eth_getBlockByNumber', ['latest', true], stats),
    async () => {
      const hash = recentTxs[Math.floor(Math.random() * recentTxs.length)];
      if (hash !== undefined) await rpc(url, 'eth_getTransactionReceipt', [hash], stats);
    },
  ];
  for (let r = 0; r < 2; r++) {
    let i = r;
    loop('reads', 10, async () => {
      await reads[i++ % reads.length]!();
    });
  }

  const remember = (hash: string) => {
    recentTxs.push(hash);
    if (recentTxs.length > 256) recentTxs.shift();
    stats.sends++;
  };
  loop('transfers', 100, async () => {
    const to = `0x${Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(40, '0')}`;
    remember(await sendSigned(url, setup, 1, { to, value: 1n, gasLimit: 21_000 }, stats));
  });
  loop('token transfers', 100, async () => {
    const to = `0x${Math.floor(Math.random() * 2 ** 32)
      .toString(16)
      .padStart(40, '0')}`;
    remember(
      await sendSigned(
        url,
        setup,
        0,
        { to: setup.tokenAddress, data: token.encodeFunctionData('transfer', [to, 1n]), gasLimit: 100_000 },
        stats,
      ),
    );
  });
  loop('eth_getLogs', 500, async () => {
    const head = BigInt(await rpc<string>(url, 'eth_blockNumber', [], stats));
    const from = head > 200n ? head - 200n : 0n;
    await rpc(url, 'eth_getLogs', [{ ...logFilter, fromBlock: `0x${from.toString(16)}`, toBlock: 'latest' }], stats);
  });

  // One filter polled all along: it must survive every sweep.
  const kept = await rpc<string>(url, 'eth_newBlockFilter', [], stats);
  loop('polled filter', 1_000, async () => {
    await rpc(url, 'eth_getFilterChanges', [kept], stats);
  });
  loop('abandoned filters', opts.filterEveryMs, async () => {
    await rpc(url, 'eth_newFilter', [{ ...logFilter, fromBlock: 'latest' }], stats);
    await rpc(url, 'eth_newBlockFilter', [], stats);
    stats.abandonedFilters += 2;
  });

  loop('vanishing clients', opts.vanishEveryMs, async () => {
    const ws = await openSocket(wsUrl);
    sockets.add(ws);
    const client = new SteadyClient(ws, stats);
    await client.call('eth_subscribe', ['newHeads']);
    await client.call('eth_subscribe', ['logs', logFilter]);
    // Two more sent and not waited for: the socket goes while they are being made.
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1000, method: 'eth_subscribe', params: ['newHeads'] }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1001, method: 'eth_subscribe', params: ['logs', logFilter] }));
    ws.terminate();
    sockets.delete(ws);
    stats.vanishedClients++;
  });

  // One more never-reading client every `neverReadingEveryMs`, each left to itself.
  const neverReading = async () => {
    const ws = await openSocket(wsUrl);
    sockets.add(ws);
    stats.neverReadingClients++;
    for (let s = 0; s < 10; s++)
      ws.send(
        JSON.stringify({ jsonrpc: '2.0', id: s, method: 'eth_subscribe', params: s % 2 ? ['newHeads'] : ['logs', {}] }),
      );
    // Stop reading: the kernel's buffers fill, then the node's. (A paused client never sees the node close
    // it either: the node's log and its connection count tell.)
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    // Ask for large answers it will never read (a batch counts once against the in-flight limit).
    for (let i = 0; i < 200 && running && ws.readyState === WebSocket.OPEN; i++) {
      ws.send(
        JSON.stringify(
          Array.from({ length: 20 }, (_, k) => ({
            jsonrpc: '2.0',
            id: 100 + i * 20 + k,
            method: 'eth_getBlockByNumber',
            params: ['latest', true],
          })),
        ),
      );
      await sleep(50);
    }
  };
  loop('never-reading clients', opts.neverReadingEveryMs, async () => {
    loops.push(neverReading().catch((error: unknown) => stats.fail('never-reading client', error)));
  });

  return {
    steadySubscriptions: opts.steadyClients * opts.subscriptionsPerClient,
    steadyConnections: opts.steadyClients,
    async stopLoops() {
      running = false;
      while (loops.length > 0) await Promise.all(loops.splice(0));
    },
    async closeSteady() {
      await Promise.all(
        steady.map(
          (c) =>
            new Promise<void>((resolve) => {
              c.ws.once('close', () => resolve());
              c.ws.close();
            }),
        ),
      );
    },
    destroyAll() {
      for (const ws of sockets) ws.terminate();
      for (const c of steady) c.ws.terminate();
    },
  };
}
