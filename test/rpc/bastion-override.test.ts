/**
 * `--override.bastion 10` on a started dev node (issue 42): a contract using TSTORE/TLOAD, MCOPY and CLZ fails before
 * block 10 and answers from it; the BLS12-381 G1ADD (0x0b) and P256VERIFY (0x100) precompiles are empty accounts
 * before and give their EIPs' vector outputs from it; eth_config names block 10 as next before and as current after.
 * Inputs are the EIPs' own vectors (test/fixtures/bastion).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../../src/chain/networks/devAccounts.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/bastion');
const vector = (path: string) =>
  (JSON.parse(readFileSync(join(FIXTURES, path), 'utf8')) as Array<{ Input: string; Expected: string }>)[0]!;
const BLS_G1ADD = vector('eip-2537/add_G1_bls.json');
const P256 = vector('eip-7951/test-vectors.json');

const BASTION_BLOCK = 10;
/** TSTORE(0, 0x2a); TLOAD(0) → mem[0]; MCOPY(0x20 ← 0, 32); CLZ(mload(0x20)) → slot 0 and returned: 250 (0xfa). */
const CODE = '602a60005d60005c6000526020600060205e6020511e8060005560005260206000f3';
/** Init code that returns CODE (34 bytes from offset 11). */
const INIT = `0x602280600b6000396000f3${CODE}`;
const G1ADD = '0x000000000000000000000000000000000000000b';
const P256VERIFY = '0x0000000000000000000000000000000000000100';

let node: NodeProcess;
let id = 0;

async function rpc(
  method: string,
  params: unknown[] = [],
): Promise<{ result?: any; error?: { code: number; message: string } }> {
  const res = await fetch(node.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
  });
  return (await res.json()) as { result?: any; error?: { code: number; message: string } };
}

async function ok(method: string, params: unknown[] = []): Promise<any> {
  const answer = await rpc(method, params);
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result;
}

const call = (to: string, data: string, block: string) => rpc('eth_call', [{ to, data }, block]);
const hex = (n: number) => `0x${n.toString(16)}`;

beforeAll(async () => {
  node = await startNode({ args: ['--override.bastion', String(BASTION_BLOCK)], timeoutMs: 60_000 });
}, 90_000);

afterAll(async () => {
  await node?.stop();
}, 30_000);

describe('a dev node with --override.bastion 10', () => {
  it('runs Bastion from block 10, not before, and eth_config says so before and after', async () => {
    expect(node.logs.some((l) => l.msg === `fork ahead: bastion at block ${BASTION_BLOCK} (override)`)).toBe(true);
    const from = DEV_ACCOUNTS[0]!.address;
    const hash = await ok('eth_sendTransaction', [{ from, data: INIT, gas: '0x100000' }]);
    const contract = (await ok('eth_getTransactionReceipt', [hash])).contractAddress as string;
    expect(await ok('eth_getCode', [contract, 'latest'])).toBe(`0x${CODE}`);

    // Before the fork: the new opcodes are invalid, the precompile addresses are plain empty accounts.
    const head = Number(await ok('eth_blockNumber'));
    expect(head).toBeLessThan(BASTION_BLOCK - 1);
    const early = hex(head);
    expect((await call(contract, '0x', early)).error).toBeDefined();
    expect((await call(G1ADD, `0x${BLS_G1ADD.Input}`, early)).result).toBe('0x');
    expect((await call(P256VERIFY, `0x${P256.Input}`, early)).result).toBe('0x');
    const before = await ok('eth_config');
    expect(before.current.activationBlock).toBe(0);
    expect(before.next.activationBlock).toBe(BASTION_BLOCK);
    expect(before.next.precompiles.BLS12_G1ADD).toBe(G1ADD);
    expect(before.next.precompiles.P256VERIFY).toBe(P256VERIFY);
    expect(before.current.precompiles.BLS12_G1ADD).toBeUndefined();
    expect(before.next.forkId).not.toBe(before.current.forkId);

    // Up to the fork block, and past it.
    await ok('anvil_mine', [hex(BASTION_BLOCK - head)]);
    expect(Number(await ok('eth_blockNumber'))).toBe(BASTION_BLOCK);
    const late = hex(BASTION_BLOCK);
    expect(BigInt((await call(contract, '0x', late)).result)).toBe(0xfan);
    expect((await call(G1ADD, `0x${BLS_G1ADD.Input}`, late)).result).toBe(`0x${BLS_G1ADD.Expected}`);
    expect((await call(P256VERIFY, `0x${P256.Input}`, late)).result).toBe(`0x${P256.Expected}`);
    // The block before the fork still answers by its own rules.
    expect((await call(contract, '0x', hex(BASTION_BLOCK - 1))).error).toBeDefined();

    const after = await ok('eth_config');
    expect(after.current).toEqual(before.next);
    expect(after.next).toBeNull();
  }, 60_000);
});
