/**
 * Foundry's cast against a dev node, as a new user runs it: `cast send --legacy` is mined; a type-2 send (explicit
 * EIP-1559 fees, signed locally or by the node with --unlocked) gets the node's refusal that says to use --legacy;
 * a plain `cast send` gets past eth_feeHistory (which once did not exist) and stops in cast's own fee estimation,
 * which finds no base fee; `cast rpc txpool_status` and `cast run <tx>` work. `cast logs` over a range wider than the
 * node's limit (lowered to 1 block here) fails at once with the range to ask for: cast retries -32005 as a rate
 * limit (about 13 s, then "Max retries exceeded"), so the limit answers -32602. `cast estimate --gas-limit` above
 * the node's gas cap runs with the cap, as geth does.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { castPath } from '../rpc/extras/foundry.js';

/** Dev account 0 of the test mnemonic (Anvil's and Hardhat's first account). */
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let node: NodeProcess;

beforeAll(async () => {
  node = await startNode({ env: { SVC_NODE_NETWORK_RPC_LOGS_MAX_BLOCK_RANGE: '1' } });
});
afterAll(async () => {
  await node?.stop();
});

/** Runs cast with `--rpc-url` of the node; its exit code and both output streams. */
function cast(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(castPath!, [...args, '--rpc-url', node.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

const REFUSAL = /error code -32003: transaction type not supported: EIP-1559.*not active on Ethereum Classic.*--legacy/;

describe.skipIf(castPath === undefined)('Foundry cast', () => {
  let sent: string;

  it('cast send --legacy: mined, status 1', async () => {
    const { code, out } = await cast('send', '--legacy', '--json', '--private-key', KEY, TO, '--value', '1');
    expect(code, out).toBe(0);
    const receipt = JSON.parse(out);
    expect(receipt.status).toBe('0x1');
    expect(receipt.type).toBe('0x0');
    sent = receipt.transactionHash;
  });

  it('cast send with EIP-1559 fees: the refusal that says to send --legacy, signed locally or by the node', async () => {
    const fees = ['--gas-price', '2gwei', '--priority-gas-price', '1gwei'];
    const local = await cast('send', '--private-key', KEY, TO, '--value', '1', ...fees);
    expect(local.code).not.toBe(0);
    expect(local.out).toMatch(REFUSAL);
    const unlocked = await cast('send', '--unlocked', '--from', FROM, TO, '--value', '1', ...fees);
    expect(unlocked.code).not.toBe(0);
    expect(unlocked.out).toMatch(REFUSAL);
  });

  it('plain cast send: eth_feeHistory answers, and cast itself finds no base fee (no EIP-1559 here)', async () => {
    const { code, out } = await cast('send', '--private-key', KEY, TO, '--value', '1');
    expect(code).not.toBe(0);
    expect(out).not.toMatch(/does not exist/);
    expect(out).toMatch(/unsupported feature: eip1559/);
  });

  it('cast rpc txpool_status', async () => {
    const { code, out } = await cast('rpc', 'txpool_status');
    expect(code, out).toBe(0);
    expect(JSON.parse(out)).toEqual({ pending: '0x0', queued: '0x0' });
  });

  it('cast logs over a range past the limit: refused at once, with the range that fits (no retries)', async () => {
    // To `latest` (cast's default): cast 1.7.1 falls back to block-by-block queries only for a numeric range.
    const { code, out } = await cast('logs', '--from-block', '0');
    expect(code).not.toBe(0);
    expect(out).toMatch(/error code -32602: .*query at most 1 blocks at a time, e\.g\. 0x0\.\.0x0/);
    expect(out).not.toMatch(/Max retries exceeded/);
  });

  it('cast estimate with a gas limit above the gas cap (50,000,000): runs with the cap, as on geth', async () => {
    const { code, out } = await cast('estimate', '--from', FROM, TO, '--value', '1', '--gas-limit', '100000000');
    expect(code, out).toBe(0);
    expect(out.trim()).toBe('21000');
  });

  it('cast run replays the legacy transaction', async () => {
    const { code, out } = await cast('run', sent);
    expect(code, out).toBe(0);
    expect(out).toMatch(/Transaction successfully executed/);
  });
});
