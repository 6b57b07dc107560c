/**
 * `npx tsx bench/rpc-write.ts` (also run by `npm run bench`): the write and call paths over JSON-RPC against a
 * dev node process (production-like: no result validation), with the load generator in other processes.
 *   1. signed value transfers sent with eth_sendRawTransaction and mined, per second: N transfers pre-signed
 *      by 10 dev accounts (signing is the client's work and happens before the clock starts), sent with
 *      BENCH_TX_CONCURRENCY requests in flight; on dev the automine answer comes once the block is imported,
 *      so the clock stops when the last transfer is in a block. With one answer per sealed block, this is
 *      bound by block latency (a real Ethash seal each), not by throughput;
 *   2. the same transfers in JSON-RPC batches (a batch answers once all its sends are mined, and they share
 *      blocks), which takes the per-request HTTP cost and most of the per-block seal latency out of the way;
 *   3. eth_call of a view function and eth_getBalance, requests per second, autocannon in its own process.
 * The engine's own throughput (pool → miner → import, no HTTP) is bench/mined-transfers.ts.
 * Knobs: BENCH_TXS (2000), BENCH_TX_CONCURRENCY (64), BENCH_TX_BATCH (100), BENCH_TX_BATCHES_IN_FLIGHT (10),
 * BENCH_DURATION seconds per autocannon run (5), BENCH_CONNECTIONS (10), BENCH_NODE_PROF (a directory: CPU-profile
 * the node). Output: bench/results/rpc-write.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface, Wallet } from 'ethers';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import { Counter } from '../test/rpc/contracts.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const txCount = Number(process.env.BENCH_TXS ?? 2000);
const concurrency = Number(process.env.BENCH_TX_CONCURRENCY ?? 64);
const batchSize = Number(process.env.BENCH_TX_BATCH ?? 100);
const batchesInFlight = Number(process.env.BENCH_TX_BATCHES_IN_FLIGHT ?? 10);
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SENDERS = 10;
const GWEI = 1_000_000_000n;

function startNode(datadir: string): Promise<{ url: string; child: ChildProcess }> {
  const { NODE_ENV: _dropped, ...env } = process.env;
  const args = [
    ...(process.env.BENCH_NODE_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_NODE_PROF] : []),
    '--import',
    'tsx',
    'src/main.ts',
    '--http.port',
    '0',
    '--http.addr',
    '127.0.0.1',
    '--p2p.port',
    '0',
    '--datadir',
    datadir,
  ];
  // Bench-sized pool: the product default (1,000) would refuse part of the burst.
  const child = spawn(process.execPath, args, {
    cwd: repo,
    env: { ...env, SVC_NODE_TXPOOL_TX_POOL_SIZE: String(2 * txCount) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      for (const line of buffered.split('\n').slice(0, -1)) {
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) resolve({ url: entry.url, child });
        } catch {
          // not a JSON line
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`svc-node exited with ${code} before listening`)));
  });
}

let nextId = 1;
async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const json = (await res.json()) as { result?: T; error?: { code: number; message: string } };
  if (json.error) throw new Error(`${method}: ${json.error.code} ${json.error.message}`);
  return json.result as T;
}

/** One autocannon run in its own process; requests per second answered with 2xx. */
function autocannon(url: string, body: string, seconds: number): Promise<number> {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-m',
    'POST',
    '-H',
    'content-type=application/json',
    '-b',
    body,
    url,
  ];
  const child = spawn(process.execPath, args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out) as { non2xx: number; errors: number; duration: number; '2xx': number };
      if (result.non2xx > 0 || result.errors > 0)
        return reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve(result['2xx'] / result.duration);
    });
  });
}

/** One JSON-RPC batch of sends; resolves with the hashes (the batch answers once all of them are mined). */
async function sendBatch(url: string, raws: readonly string[]): Promise<string[]> {
  const body = raws.map((raw) => ({ jsonrpc: '2.0', id: nextId++, method: 'eth_sendRawTransaction', params: [raw] }));
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answers = (await res.json()) as { result?: string; error?: { code: number; message: string } }[];
  const failed = answers.find((a) => a.error !== undefined);
  if (failed) throw new Error(`eth_sendRawTransaction: ${failed.error!.code} ${failed.error!.message}`);
  return answers.map((a) => a.result!);
}

/** `batchSize` 1 = single requests, `concurrency` of them in flight; otherwise batches of `batchSize`. */
async function transfers(url: string, batchSize = 1): Promise<{ perSecond: number; blocks: number; ms: number }> {
  const wallets = DEV_ACCOUNTS.slice(0, SENDERS).map((a) => new Wallet(a.privateKey));
  const nonces = await Promise.all(
    wallets.map(async (w) => Number(BigInt(await rpc<string>(url, 'eth_getTransactionCount', [w.address, 'pending'])))),
  );
  const recipient = Wallet.createRandom().address;
  const signed = await Promise.all(
    Array.from({ length: txCount }, (_, i) => {
      const s = i % SENDERS;
      return wallets[s]!.signTransaction({
        type: 0,
        chainId: 1337n,
        to: recipient,
        value: 1n,
        gasLimit: 21_000n,
        gasPrice: GWEI,
        nonce: nonces[s]! + Math.floor(i / SENDERS),
      });
    }),
  );
  const startBlock = BigInt(await rpc<string>(url, 'eth_blockNumber', []));
  const started = performance.now();
  let next = 0;
  const hashes: string[] = [];
  await Promise.all(
    Array.from({ length: batchSize === 1 ? concurrency : batchesInFlight }, async () => {
      while (next < signed.length) {
        if (batchSize === 1) hashes.push(await rpc<string>(url, 'eth_sendRawTransaction', [signed[next++]]));
        else {
          const batch = signed.slice(next, next + batchSize);
          next += batch.length;
          hashes.push(...(await sendBatch(url, batch)));
        }
      }
    }),
  );
  const ms = performance.now() - started;
  // Every transfer must be in a block: check the last one's receipt and the recipient's balance.
  const balance = BigInt(await rpc<string>(url, 'eth_getBalance', [recipient, 'latest']));
  if (balance !== BigInt(txCount))
    throw new Error(`only ${balance} of ${txCount} transfers were mined when the sends returned`);
  const endBlock = BigInt(await rpc<string>(url, 'eth_blockNumber', []));
  return { perSecond: (txCount * 1000) / ms, blocks: Number(endBlock - startBlock), ms };
}

async function deployCounter(url: string): Promise<string> {
  const deployer = new Wallet(DEV_ACCOUNTS[0]!.privateKey);
  const nonce = Number(BigInt(await rpc<string>(url, 'eth_getTransactionCount', [deployer.address, 'pending'])));
  const data = Counter.bytecode + new Interface(Counter.abi).encodeDeploy([1n]).slice(2);
  const hash = await rpc<string>(url, 'eth_sendRawTransaction', [
    await deployer.signTransaction({ type: 0, chainId: 1337n, data, gasLimit: 500_000n, gasPrice: GWEI, nonce }),
  ]);
  const receipt = await rpc<{ contractAddress: string }>(url, 'eth_getTransactionReceipt', [hash]);
  return receipt.contractAddress;
}

async function main(): Promise<void> {
  const datadir = mkdtempSync(join(tmpdir(), 'svc-node-bench-rpc-'));
  const node = await startNode(datadir);
  try {
    // Warm-up: the epoch cache, JIT of the send, execute and seal paths.
    await rpc(node.url, 'eth_sendTransaction', [
      { from: DEV_ACCOUNTS[0]!.address, to: DEV_ACCOUNTS[0]!.address, value: '0x1' },
    ]);
    const sent = await transfers(node.url);
    process.stdout.write(
      `transfers: ${Math.round(sent.perSecond)}/s (${txCount} in ${Math.round(sent.ms)} ms, ${sent.blocks} blocks)\n`,
    );
    const batched = await transfers(node.url, batchSize);
    process.stdout.write(
      `transfers in batches: ${Math.round(batched.perSecond)}/s (${txCount} in ${Math.round(batched.ms)} ms, ${batched.blocks} blocks)\n`,
    );
    const counter = await deployCounter(node.url);
    const callBody = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_call',
      params: [{ to: counter, data: new Interface(Counter.abi).encodeFunctionData('count') }, 'latest'],
    });
    const balanceBody = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_getBalance',
      params: [DEV_ACCOUNTS[3]!.address, 'latest'],
    });
    await autocannon(node.url, callBody, 2); // warm-up
    const callRps = await autocannon(node.url, callBody, duration);
    process.stdout.write(`eth_call: ${Math.round(callRps)} req/s\n`);
    await autocannon(node.url, balanceBody, 2);
    const balanceRps = await autocannon(node.url, balanceBody, duration);
    process.stdout.write(`eth_getBalance: ${Math.round(balanceRps)} req/s\n`);
    const report = [
      '# Benchmark: writes and calls over JSON-RPC (dev node process)',
      '',
      `Date: ${new Date().toISOString()}; Node ${process.version}; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load average when done: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}.`,
      '',
      '| workload | result |',
      '|---|---:|',
      `| signed value transfers, eth_sendRawTransaction → mined (${txCount} txs, ${concurrency} in flight, ${sent.blocks} blocks) | ${Math.round(sent.perSecond)} tx/s |`,
      `| the same, in JSON-RPC batches of ${batchSize} sends (${batchesInFlight} batches in flight, ${batched.blocks} blocks) | ${Math.round(batched.perSecond)} tx/s |`,
      `| eth_call of a view function (autocannon, ${connections} connections, ${duration} s) | ${Math.round(callRps)} req/s |`,
      `| eth_getBalance (autocannon, ${connections} connections, ${duration} s) | ${Math.round(balanceRps)} req/s |`,
      '',
    ].join('\n');
    mkdirSync(`${repo}bench/results`, { recursive: true });
    writeFileSync(`${repo}bench/results/rpc-write.md`, report);
    process.stdout.write('\n' + report);
  } finally {
    node.child.kill('SIGTERM');
    await new Promise((resolve) => node.child.once('exit', resolve));
    rmSync(datadir, { recursive: true, force: true });
  }
}

await main();
