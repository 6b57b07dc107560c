/**
 * console.log on the dev node: a contract compiled with calls to hardhat's console address
 * (test/fixtures/contracts/ConsoleLogger.sol) is deployed and called through viem on a node process, and the
 * node's output (its JSON log lines on stdout) holds what the contract logged, as Anvil prints it: strings,
 * numbers, negative numbers, addresses, booleans, bytes, format strings with %s %d %i and %%, a reverted
 * transaction's line, each mined line with its transaction's hash; eth_call, eth_estimateGas and
 * debug_traceCall print theirs with the method's name. With `--quiet-console` the same script prints none.
 */
import { readFileSync } from 'node:fs';
import { createPublicClient, createWalletClient, defineChain, http, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, DEV_MNEMONIC } from '../../src/chain/networks/devAccounts.js';
import { spawn } from 'node:child_process';
import { foundryBinary } from '../helpers/anvil-node.js';
import { freePort } from '../helpers/free-port.js';
import { runCli, startNode, type NodeProcess } from '../helpers/node-process.js';
import { call } from '../helpers/rpc.js';

const artifact = JSON.parse(
  readFileSync(new URL('../fixtures/contracts/ConsoleLogger.json', import.meta.url), 'utf8'),
) as { abi: Abi; bytecode: Hex };
const sender = DEV_ACCOUNTS[0]!.address as Hex;
/** The account's checksummed spelling, as console.log prints an address. */
const senderText = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** What bump(3) logs on a fresh deployment (the lines Anvil 1.7.1 printed for the same call). */
const bumpLines = [
  'bump by 3 to 3',
  `${senderText} sent 7 wei, ok: true`,
  '3',
  '-5',
  senderText,
  'true',
  '0xc0ffee',
  '0xdeadbeef',
  '100% sure, count=3',
];

interface Script {
  readonly deployTx: Hex;
  readonly bumpTx: Hex;
  readonly failTx: Hex;
}

/** Deploys the logger, bumps it, reads it (eth_call, eth_estimateGas, debug_traceCall) and sends a reverting call. */
async function runScript(node: NodeProcess): Promise<Script> {
  const chain = defineChain({
    id: 1337,
    name: 'svc dev',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.url] } },
  });
  const reader = createPublicClient({ chain, transport: http(node.url) });
  const wallet = createWalletClient({ chain, account: sender, transport: http(node.url) });
  const deployTx = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode });
  const deployed = await reader.waitForTransactionReceipt({ hash: deployTx });
  const address = deployed.contractAddress!;
  const bumpTx = await wallet.writeContract({ address, abi: artifact.abi, functionName: 'bump', args: [3n] });
  await reader.waitForTransactionReceipt({ hash: bumpTx });
  expect(await reader.readContract({ address, abi: artifact.abi, functionName: 'peek' })).toBe(3n);
  await reader.estimateContractGas({ address, abi: artifact.abi, functionName: 'peek', account: sender });
  await reader.request({
    method: 'debug_traceCall' as 'eth_call',
    params: [{ to: address, data: '0x59e02dd7' }, 'latest', { tracer: 'callTracer' }] as never,
  });
  const failTx = await wallet.writeContract({ address, abi: artifact.abi, functionName: 'fail', gas: 200_000n });
  expect((await reader.waitForTransactionReceipt({ hash: failTx })).status).toBe('reverted');
  return { deployTx, bumpTx, failTx };
}

const consoleLines = (node: NodeProcess) => node.logs.filter((line) => line.msg === 'console.log');

/** Waits for the node to have written `count` console.log lines (they follow the answers by a moment). */
async function untilLines(node: NodeProcess, count: number): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 200 && consoleLines(node).length < count; i++) await new Promise((r) => setTimeout(r, 25));
  return consoleLines(node);
}

describe('console.log on the dev node', () => {
  let node: NodeProcess;
  let quiet: NodeProcess;
  let script: Script;
  beforeAll(async () => {
    [node, quiet] = await Promise.all([
      startNode({ args: ['--exec.workers', '1', '--print-traces'] }),
      startNode({ args: ['--quiet-console'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([node?.stop(), quiet?.stop()]);
  });

  it("prints the contract's lines in the node's log, mined ones with their transaction's hash", async () => {
    script = await runScript(node);
    const { deployTx, bumpTx, failTx } = script;
    const lines = (await untilLines(node, 14)).map(({ tx, call, text, level }) => ({ level, tx, call, text }));
    const mined = (tx: Hex, text: string) => ({ level: 'info', tx, call: undefined, text });
    const called = (call: string, text: string) => ({ level: 'info', tx: undefined, call, text });
    expect(lines).toEqual([
      mined(deployTx, `ConsoleLogger deployed by ${senderText}`),
      ...bumpLines.map((text) => mined(bumpTx, text)),
      called('eth_call', 'peek sees 3'),
      called('eth_estimateGas', 'peek sees 3'),
      called('debug_traceCall', 'peek sees 3'),
      mined(failTx, 'about to revert'),
    ]);
  });

  it('prints none with --quiet-console', async () => {
    await runScript(quiet);
    // A line is written before the answer of the request that caused it: the script's last answer is in.
    await fetch(quiet.url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' });
    expect(consoleLines(quiet)).toEqual([]);
  });

  it('--print-traces prints each mined transaction as a tree of its calls, failures with their reason', async () => {
    const { bumpTx, failTx } = script;
    const framesOf = (tx: Hex) => node.logs.filter((line) => line.msg === 'call trace' && line.tx === tx);
    for (let i = 0; i < 200 && framesOf(failTx).length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const bump = framesOf(bumpTx).map((line) => line.frame as string);
    expect(bump[0]).toMatch(/^CALL 0x[0-9a-f]{40} 0x[0-9a-f]{8} gasUsed=\d+$/);
    // Nine console.log calls, each a static call to the console address one level down.
    expect(bump.slice(1)).toHaveLength(9);
    for (const frame of bump.slice(1)) expect(frame).toMatch(/^└ STATICCALL console 0x[0-9a-f]{8} gasUsed=0$/);
    expect(framesOf(bumpTx).map((line) => line.depth)).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    const fail = framesOf(failTx).map((line) => line.frame as string);
    expect(fail[0]).toMatch(/^CALL 0x[0-9a-f]{40} 0xa9cc4718 gasUsed=\d+ \[execution reverted: failed on purpose\]$/);
    expect(fail.slice(1)).toEqual([expect.stringMatching(/^└ STATICCALL console /)]);
    // The node without the flag prints none.
    expect(quiet.logs.filter((line) => line.msg === 'call trace')).toEqual([]);
  });

  it('refuses --print-traces on mordor', async () => {
    const refused = await runCli(['--network', 'mordor', '--print-traces', '--datadir', '/nonexistent/x']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('dev.print-traces (--print-traces) is for the dev network only');
  });
});

/** Anvil 1.7.1 printing to a pipe (test/helpers/anvil-node.ts starts it silent), posing as a NodeProcess for the script. */
async function startLoudAnvil(): Promise<{ node: NodeProcess; stdout: () => string }> {
  const port = await freePort();
  const child = spawn(
    foundryBinary('anvil')!,
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '1337', '--mnemonic', DEV_MNEMONIC],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 300; i++) {
    try {
      await call(url, 'eth_chainId', [], 1000);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const node = { child, port, url, wsUrl: '', datadir: '', logs: [], stop } as NodeProcess;
  return { node, stdout: () => out };
}

describe.skipIf(foundryBinary('anvil') === undefined)('console.log next to Anvil 1.7.1', () => {
  it('prints the same lines as Anvil for the same script', async () => {
    const [ours, anvil] = await Promise.all([startNode(), startLoudAnvil()]);
    try {
      await Promise.all([runScript(ours), runScript(anvil.node)]);
      await untilLines(ours, 14);
      // Anvil's log after its banner: method names, transaction summaries (indented) and the console.log lines.
      const printed = anvil
        .stdout()
        .split('\n')
        .slice(
          anvil
            .stdout()
            .split('\n')
            .findIndex((line) => line.startsWith('Listening on')) + 1,
        )
        .filter((line) => line !== '' && !/^\s/.test(line) && !/^[a-z]+_[A-Za-z0-9]+$/.test(line));
      // Anvil prints eth_estimateGas's lines once per run of its search; this node once per request.
      expect(new Set(consoleLines(ours).map((line) => line.text))).toEqual(new Set(printed));
      expect(printed).toContain('100% sure, count=3');
    } finally {
      await Promise.all([ours.stop(), anvil.node.stop()]);
    }
  });
});
