/**
 * Blocks a dev node seals on its faster paths are each re-executed by @ethereumjs/vm on a worker (exec/seal-checker.ts):
 * a dev node process with the default settings, sent transfers (to new and known accounts), a contract creation,
 * calls that write storage and log, and a call that reverts, reports every block checked and none failed in
 * `svc_seal_checks`, logs no error, and answers as a node sealing with the library's own paths (`--no-exec.lean`):
 * the same receipts and the same state root after every block.
 */
import { readFileSync } from 'node:fs';
import { Interface } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.js';
import { receiptOf } from '../helpers/receipt-of.js';
import { call } from '../helpers/rpc.js';

const artifact = JSON.parse(readFileSync(new URL('../fixtures/contracts/Counter.json', import.meta.url), 'utf8')) as {
  abi: string[];
  bytecode: string;
};
const abi = new Interface(artifact.abi);
const [a, b, c] = DEV_ACCOUNTS.map((x) => x.address);

/** The same transactions on `node`, one block each (automine); their receipts without block-specific fields. */
async function workload(node: NodeProcess): Promise<unknown[]> {
  const rpc = (method: string, params: unknown[]) => call(node.url, method, params);
  const send = async (tx: Record<string, string>) => receiptOf(rpc, await rpc('eth_sendTransaction', [tx]));
  const receipts = [
    await send({ from: a!, to: b!, value: '0xde0b6b3a7640000' }),
    await send({ from: b!, to: '0x00000000000000000000000000000000000000aa', value: '0x1' }),
    await send({ from: a!, data: artifact.bytecode + abi.encodeDeploy([5n]).slice(2), gas: '0x100000' }),
  ];
  const counter = receipts[2].contractAddress as string;
  receipts.push(
    await send({ from: c!, to: counter, data: abi.encodeFunctionData('increment', [2n]), gas: '0x30000' }),
    await send({ from: a!, to: counter, data: abi.encodeFunctionData('increment', [0n]), gas: '0x30000' }),
    await send({ from: b!, to: counter, data: abi.encodeFunctionData('incrementViaCall', [1n]), gas: '0x40000' }),
  );
  const count = await rpc('eth_call', [{ to: counter, data: abi.encodeFunctionData('count') }, 'latest']);
  const strip = ({ blockHash: _h, transactionHash: _t, logs, ...rest }: Record<string, any>) => ({
    ...rest,
    logs: logs.map(
      ({ blockHash: _bh, transactionHash: _th, blockTimestamp: _bt, ...log }: Record<string, unknown>) => log,
    ),
  });
  return [...receipts.map(strip), count];
}

async function stateRoots(node: NodeProcess): Promise<string[]> {
  const head = Number(await call(node.url, 'eth_blockNumber'));
  const roots: string[] = [];
  for (let n = 1; n <= head; n++)
    roots.push((await call(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).stateRoot);
  return roots;
}

async function sealChecks(node: NodeProcess): Promise<Record<string, number | undefined>> {
  const families = parsePrometheusText(await (await fetch(new URL('/metrics', node.url))).text());
  const of = (outcome: string) => sampleValue(families, 'svc_seal_checks', { outcome });
  return { checked: of('checked'), failed: of('failed'), errors: of('errors'), pending: of('pending') };
}

describe('seal checks on a dev node process', () => {
  let lean: NodeProcess;
  let library: NodeProcess;
  let answers: [unknown[], unknown[]];

  beforeAll(async () => {
    [lean, library] = await Promise.all([
      startNode({ args: ['--no-p2p'] }),
      startNode({ args: ['--no-p2p', '--no-exec.lean'] }),
    ]);
    answers = await Promise.all([workload(lean), workload(library)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([lean?.stop(), library?.stop()]);
  });

  it('checks every block it sealed and finds none different', async () => {
    const head = Number(await call(lean.url, 'eth_blockNumber'));
    expect(head).toBe(6);
    let figures = await sealChecks(lean);
    for (let i = 0; i < 200 && figures.checked !== head; i++) {
      await new Promise((r) => setTimeout(r, 50));
      figures = await sealChecks(lean);
    }
    expect(figures).toEqual({ checked: head, failed: 0, errors: 0, pending: 0 });
    expect(lean.logs.filter((l) => l.level === 'error' || l.level === 50)).toEqual([]);
    expect(Number(await call(lean.url, 'eth_blockNumber'))).toBe(head);
  });

  it('answers as a node sealing with the library own execution paths', async () => {
    expect(answers[0]).toEqual(answers[1]);
    expect(await stateRoots(lean)).toEqual(await stateRoots(library));
    // The library-path node's blocks are checked too (its assembly still reuses one state and VM per block).
    expect((await sealChecks(library)).failed).toBe(0);
  });
});
