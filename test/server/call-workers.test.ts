/**
 * A node with execution workers (`--exec.workers 1`) answers eth_call, eth_estimateGas and eth_createAccessList
 * exactly as a node without them (`--exec.workers 0`): the same transactions on both dev chains, the same requests,
 * the same JSON answers, errors included. The worker node's answers are taken once its worker is ready (its log
 * says so), so they come from the worker; and the node exits when stopped (no thread keeps it alive).
 */
import { readFileSync } from 'node:fs';
import { Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { receiptOf } from '../helpers/receipt-of.js';
import { call, post, request } from '../helpers/rpc.js';

const artifact = JSON.parse(readFileSync(new URL('../fixtures/contracts/Counter.json', import.meta.url), 'utf8')) as {
  abi: string[];
  bytecode: string;
};
const abi = new Interface(artifact.abi);
const from = DEV_ACCOUNTS[0]!.address;
const other = DEV_ACCOUNTS[1]!.address;

/** Deploys Counter(5) and increments it once; returns its address. */
async function deploy(node: NodeProcess): Promise<string> {
  const rpc = (method: string, params: unknown[]) => call(node.url, method, params);
  const data = artifact.bytecode + abi.encodeDeploy([5n]).slice(2);
  const created = await receiptOf(rpc, await rpc('eth_sendTransaction', [{ from, data, gas: '0x100000' }]));
  const address = created.contractAddress as string;
  const increment = abi.encodeFunctionData('increment', [2n]);
  await receiptOf(rpc, await rpc('eth_sendTransaction', [{ from, to: address, data: increment, gas: '0x30000' }]));
  return address;
}

describe('a node with execution workers', () => {
  let pooled: NodeProcess;
  let local: NodeProcess;
  let counter: string;

  beforeAll(async () => {
    [pooled, local] = await Promise.all([
      startNode({ args: ['--no-p2p', '--exec.workers', '1'] }),
      startNode({ args: ['--no-p2p', '--exec.workers', '0'] }),
    ]);
    const [a, b] = await Promise.all([deploy(pooled), deploy(local)]);
    expect(a).toBe(b);
    counter = a;
    // The first call starts the worker; later ones wait for it to be ready.
    await call(pooled.url, 'eth_call', [{ to: counter, data: abi.encodeFunctionData('count') }, 'latest']);
    const until = Date.now() + 60_000;
    while (!pooled.logs.some((l) => l.msg === 'execution worker ready') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
  }, 180_000);

  afterAll(async () => {
    await Promise.all([pooled?.stop(), local?.stop()]);
  });

  it('answers calls, estimates and access lists as a node without workers', async () => {
    expect(pooled.logs.some((l) => l.msg === 'execution worker ready')).toBe(true);
    const enc = (name: string, args: unknown[] = []) => abi.encodeFunctionData(name, args);
    const requests = [
      request('eth_call', [{ to: counter, data: enc('count') }, 'latest'], 1),
      request('eth_call', [{ from, to: counter, data: enc('owner') }, 'latest'], 2),
      request('eth_call', [{ from, to: counter, data: enc('increment', [0n]) }, 'latest'], 3),
      request('eth_call', [{ to: counter, data: enc('peekAdd', [2n ** 256n - 1n]) }, 'latest'], 4),
      request('eth_call', [{ to: counter, data: enc('count') }, '0x1'], 5),
      request(
        'eth_call',
        [
          { to: counter, data: enc('count') },
          'latest',
          { [counter]: { stateDiff: { [`0x${'0'.repeat(64)}`]: `0x${'0'.repeat(62)}2a` } } },
        ],
        6,
      ),
      request('eth_estimateGas', [{ from, to: counter, data: enc('increment', [3n]) }], 7),
      request('eth_estimateGas', [{ from, to: counter, data: enc('incrementViaCall', [1n]) }], 8),
      request('eth_estimateGas', [{ from, to: other, value: '0x1' }], 9),
      request('eth_estimateGas', [{ from, to: counter, data: enc('increment', [0n]) }], 10),
      request('eth_createAccessList', [{ from, to: counter, data: enc('incrementViaCall', [1n]) }, 'latest'], 11),
      request('eth_createAccessList', [{ from, to: counter, data: enc('reset') }], 12),
      request('eth_call', [{ from, data: `${artifact.bytecode}${abi.encodeDeploy([9n]).slice(2)}` }, 'latest'], 13),
    ];
    const [a, b] = await Promise.all([post(pooled.url, requests), post(local.url, requests)]);
    expect(a.text).toBe(b.text);
    const answers = a.body as Array<{ id: number; result?: string; error?: { code: number } }>;
    // Sanity: the answers say what the requests ask.
    const byId = new Map(answers.map((x) => [x.id, x]));
    expect(BigInt(byId.get(1)!.result!)).toBe(7n);
    expect(BigInt(byId.get(6)!.result!)).toBe(42n);
    expect(byId.get(3)!.error?.code).toBe(3);
    expect(byId.get(10)!.error?.code).toBe(3);
    expect(BigInt(byId.get(7)!.result!)).toBeGreaterThan(21_000n);
  }, 60_000);

  it('exits when stopped', async () => {
    const exited = new Promise<number | null>((resolve) => pooled.child.once('exit', (code) => resolve(code)));
    pooled.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
