/**
 * Otterscan's ots_* methods (and erigon_getHeaderByNumber) against Anvil: the same signed transactions on both
 * (scenario.ts: deployments, a driver call that sends value, creates a child with value that self-destructs and
 * CREATE2s another, a revert with a reason, an out-of-gas), then every method on both nodes, compared on what both
 * should agree on. Where svc-node follows Erigon instead (no top-level operation in ots_getInternalOperations,
 * creations and self-destructs kept and precompiles left out of ots_traceTransaction, null for a destroyed
 * contract's creator, inputs cut to their selector in ots_getBlockTransactions), the test says so and checks ours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { RpcCallError, call } from '../helpers/rpc.js';
import { type AnvilProcess, startAnvil } from './anvil.js';
import { ACCOUNT0, ACCOUNT1, alignAnvil, contractAt, scenario, sendScenario } from './scenario.js';

const COINBASE = '0x000000000000000000000000000000000000c0de';
const UNKNOWN_HASH = `0x${'11'.repeat(32)}`;
type Json = any;

let svc: NodeProcess;
let anvil: AnvilProcess;
let svcHashes: string[];
let anvilHashes: string[];

const both = (method: string, params: unknown[]): Promise<[Json, Json]> =>
  Promise.all([call(svc.url, method, params, 60_000), call(anvil.url, method, params, 60_000)]);

/** The addresses the driver transaction (scenario index 4) created: its CREATE child and its CREATE2 child. */
async function driverChildren(): Promise<string[]> {
  const frame = await call<Json>(svc.url, 'debug_traceTransaction', [svcHashes[4], { tracer: 'callTracer' }]);
  return frame.calls.filter((c: Json) => c.type.startsWith('CREATE')).map((c: Json) => c.to);
}

beforeAll(async () => {
  [svc, anvil] = await Promise.all([startNode({ args: ['--no-p2p', '--miner.coinbase', COINBASE] }), startAnvil()]);
  await alignAnvil(anvil.url, COINBASE);
  const txs = scenario();
  [svcHashes, anvilHashes] = await Promise.all([sendScenario(svc.url, txs), sendScenario(anvil.url, txs)]);
}, 180_000);

afterAll(async () => {
  await Promise.all([svc?.stop(), anvil?.stop()]);
});

describe('Otterscan API against Anvil', () => {
  it('sends the same signed transactions to both', () => {
    expect(svcHashes).toEqual(anvilHashes);
  });

  it("ots_getApiLevel is Otterscan's minimum, and erigon_getHeaderByNumber answers its probe", async () => {
    expect(await both('ots_getApiLevel', [])).toEqual([8, 8]);
    const [ours, theirs] = await both('erigon_getHeaderByNumber', [5]);
    for (const field of ['number', 'gasUsed', 'miner', 'transactions'])
      expect(ours[field], field).toEqual(theirs[field]);
    expect(await call(svc.url, 'erigon_getHeaderByNumber', ['latest'])).toMatchObject({ number: '0xc' });
    expect(await call(svc.url, 'erigon_getHeaderByNumber', [999])).toBeNull();
  });

  it('ots_hasCode agrees for contracts, accounts and blocks before a deployment', async () => {
    for (const [address, block] of [
      [contractAt(0), 'latest'],
      [contractAt(3), 4],
      [contractAt(3), 3],
      [contractAt(0), '0x0'],
      [ACCOUNT1, 'latest'],
    ]) {
      const [ours, theirs] = await both('ots_hasCode', [address, block]);
      expect(ours, `${address} at ${block}`).toBe(theirs);
    }
    expect(await call(svc.url, 'ots_hasCode', [contractAt(3), 4])).toBe(true);
    expect(await call(svc.url, 'ots_hasCode', [contractAt(3), 3])).toBe(false);
  });

  it('ots_getBlockDetails(ByHash): same block and fees; issuance is what the coinbase was credited', async () => {
    const [ours, theirs] = await both('ots_getBlockDetails', [5]);
    for (const field of ['number', 'gasUsed', 'miner', 'transactionCount'])
      expect(ours.block[field], field).toEqual(theirs.block[field]);
    expect(ours.totalFees).toBe(theirs.totalFees);
    expect(BigInt(ours.totalFees)).toBeGreaterThan(0n);
    expect(ours.block).not.toHaveProperty('transactions');
    expect(ours.block.logsBloom).toBeNull();
    // Anvil issues nothing (post-merge rules); an ETC block mints its reward: the coinbase got reward + fees.
    const balance = async (block: string) => BigInt(await call<string>(svc.url, 'eth_getBalance', [COINBASE, block]));
    const credited = (await balance('0x5')) - (await balance('0x4'));
    expect(BigInt(ours.issuance.blockReward) + BigInt(ours.totalFees)).toBe(credited);
    expect(ours.issuance).toMatchObject({ uncleReward: '0x0', issuance: ours.issuance.blockReward });
    expect(BigInt(ours.issuance.blockReward)).toBeGreaterThan(0n);
    expect(await call(svc.url, 'ots_getBlockDetailsByHash', [ours.block.hash])).toEqual(ours);
    // The genesis block mints nothing, on either chain.
    const [genesis, theirGenesis] = await both('ots_getBlockDetails', [0]);
    expect(genesis.issuance).toEqual(theirGenesis.issuance);
    expect(genesis.totalFees).toBe('0x0');
    expect(await call(svc.url, 'ots_getBlockDetails', [999])).toBeNull();
    expect(await call(svc.url, 'ots_getBlockDetailsByHash', [UNKNOWN_HASH])).toBeNull();
  });

  it('ots_getBlockTransactions: same transactions and receipts, inputs cut to the selector', async () => {
    const [ours, theirs] = await both('ots_getBlockTransactions', [6, 0, 10]);
    expect(ours.fullblock.transactionCount).toBe(1);
    const tx = ours.fullblock.transactions[0];
    const their = theirs.fullblock.transactions[0];
    for (const field of ['hash', 'nonce', 'from', 'to', 'value', 'gas', 'gasPrice', 'blockNumber'])
      expect(tx[field], field).toBe(their[field]);
    expect(tx.input).toBe(their.input.slice(0, 10));
    const receipt = ours.receipts[0];
    for (const field of ['transactionHash', 'status', 'gasUsed', 'cumulativeGasUsed', 'from', 'to', 'contractAddress'])
      expect(receipt[field], field).toEqual(theirs.receipts[0][field]);
    expect(receipt).toMatchObject({ logs: null, logsBloom: null });
    // Past the last page: no transactions, but the block's count stays (Otterscan pages with it).
    const past = await call<Json>(svc.url, 'ots_getBlockTransactions', [6, 1, 10]);
    expect(past.fullblock).toMatchObject({ transactions: [], transactionCount: 1 });
    expect(past.receipts).toEqual([]);
  });

  it('ots_getTransactionError: the revert data, 0x for a success and for out of gas', async () => {
    for (const i of [6, 5, 7]) {
      const [ours, theirs] = await both('ots_getTransactionError', [svcHashes[i]]);
      expect(ours, `scenario ${i}`).toBe(theirs);
    }
    const reason = await call<string>(svc.url, 'ots_getTransactionError', [svcHashes[6]]);
    expect(reason.slice(0, 10)).toBe('0x08c379a0');
    expect(Buffer.from(reason.slice(2 + 8 + 128, 2 + 8 + 128 + 8), 'hex').toString()).toBe('nope');
    await expect(call(svc.url, 'ots_getTransactionError', [UNKNOWN_HASH])).rejects.toMatchObject({ code: -32000 });
  });

  it('ots_getInternalOperations: the transfers, creations and self-destruct inside a transaction', async () => {
    const [ours, theirs] = await both('ots_getInternalOperations', [svcHashes[4]]);
    // Anvil lists the transaction's own transfer first; Erigon (and svc-node) only what code did inside it.
    expect(theirs[0]).toMatchObject({ type: 0, from: ACCOUNT0, to: contractAt(3) });
    expect(ours).toEqual(theirs.slice(1));
    expect(ours.map((op: Json) => op.type)).toEqual([0, 2, 1, 3]);
    const [created, created2] = await driverChildren();
    expect(ours[1]).toEqual({ type: 2, from: contractAt(3), to: created, value: '0x5' });
    expect(ours[2]).toEqual({ type: 1, from: created, to: contractAt(3), value: '0x5' });
    expect(ours[3]).toMatchObject({ type: 3, to: created2 });
    expect(await call(svc.url, 'ots_getInternalOperations', [svcHashes[8]])).toEqual([]);
    await expect(call(svc.url, 'ots_getInternalOperations', [UNKNOWN_HASH])).rejects.toMatchObject({ code: -32000 });
  });

  it('ots_traceTransaction: the same calls; creations and self-destructs kept, precompiles left out', async () => {
    const [ours, theirs] = await both('ots_traceTransaction', [svcHashes[4]]);
    const precompile = (e: Json) => BigInt(e.to) < 0x100n;
    const calls = (entries: Json[]) =>
      entries
        .filter((e) => !['CREATE', 'CREATE2', 'SELFDESTRUCT'].includes(e.type) && !precompile(e))
        .map(({ type, depth, from, to, input, output, value }) => ({
          ...{ type, depth, from, to, input, output },
          // Erigon has no value for DELEGATECALL and STATICCALL; Anvil gives them one.
          value: type === 'DELEGATECALL' || type === 'STATICCALL' ? null : value,
        }));
    expect(calls(ours)).toEqual(calls(theirs));
    expect(ours.some(precompile)).toBe(false);
    const [created, created2] = await driverChildren();
    const extra = ours.filter((e: Json) => ['CREATE', 'CREATE2', 'SELFDESTRUCT'].includes(e.type));
    expect(extra).toMatchObject([
      { type: 'CREATE', depth: 1, from: contractAt(3), to: created, value: '0x5' },
      { type: 'SELFDESTRUCT', depth: 2, from: created, to: contractAt(3), value: '0x5', output: null },
      { type: 'CREATE2', depth: 1, from: contractAt(3), to: created2, value: '0x0' },
    ]);
    // A reverted call and a transaction straight to a precompile (its own frame is kept, as in Anvil).
    for (const i of [6, 9]) {
      const [oursOf, theirsOf] = await both('ots_traceTransaction', [svcHashes[i]]);
      expect(oursOf, `scenario ${i}`).toEqual(theirsOf);
    }
    // A deployment is a CREATE at depth 0 (Anvil leaves creations out and answers []).
    expect(await call(svc.url, 'ots_traceTransaction', [svcHashes[0]])).toMatchObject([
      { type: 'CREATE', depth: 0, from: ACCOUNT0, to: contractAt(0), value: '0x0' },
    ]);
  });

  it('ots_getContractCreator: the deploying transaction and the direct creator', async () => {
    const [created, created2] = await driverChildren();
    for (const address of [contractAt(0), contractAt(3), created2, ACCOUNT1]) {
      const [ours, theirs] = await both('ots_getContractCreator', [address]);
      expect(ours, address).toEqual(theirs);
    }
    expect(await call(svc.url, 'ots_getContractCreator', [created2])).toEqual({
      hash: svcHashes[4],
      creator: contractAt(3),
    });
    // Destroyed in the transaction that made it: null, as Otterscan's API says (Anvil still names the creator).
    expect(await call(svc.url, 'ots_getContractCreator', [created])).toBeNull();
  });

  it('ots_getTransactionBySenderAndNonce finds each nonce, and null past the last', async () => {
    for (const nonce of [0, 3, '0xb', 11]) {
      const [ours, theirs] = await both('ots_getTransactionBySenderAndNonce', [ACCOUNT0, nonce]);
      expect(ours, `nonce ${nonce}`).toBe(theirs);
    }
    expect(await call(svc.url, 'ots_getTransactionBySenderAndNonce', [ACCOUNT0, 3])).toBe(svcHashes[3]);
    expect(await call(svc.url, 'ots_getTransactionBySenderAndNonce', [ACCOUNT0, 99])).toBeNull();
  });

  it('ots_searchTransactionsBefore/After page an address history as Anvil does', async () => {
    const view = (page: Json) => ({
      txs: page.txs.map((t: Json) => t.hash),
      receipts: page.receipts.map((r: Json) => [r.transactionHash, r.status, r.gasUsed]),
      firstPage: page.firstPage,
      lastPage: page.lastPage,
    });
    for (const [method, address, anchor, size] of [
      ['ots_searchTransactionsBefore', ACCOUNT0, 5, 3],
      ['ots_searchTransactionsBefore', ACCOUNT0, 3, 5],
      ['ots_searchTransactionsAfter', ACCOUNT0, 5, 3],
      ['ots_searchTransactionsAfter', ACCOUNT0, 9, 25],
      ['ots_searchTransactionsAfter', ACCOUNT0, 0, 2],
      ['ots_searchTransactionsBefore', ACCOUNT1, 0, 25],
    ] as const) {
      const [ours, theirs] = await both(method, [address, anchor, size]);
      expect(view(ours), `${method} ${address} ${anchor} ${size}`).toEqual(view(theirs));
    }
    const before = await call<Json>(svc.url, 'ots_searchTransactionsBefore', [ACCOUNT0, 5, 3]);
    expect(before.txs.map((t: Json) => t.hash)).toEqual([svcHashes[3], svcHashes[2], svcHashes[1]]);
    const block = await call<Json>(svc.url, 'eth_getBlockByNumber', ['0x4', false]);
    expect(before.receipts[0].timestamp).toBe(block.timestamp);
    const latest = await call<Json>(svc.url, 'ots_searchTransactionsBefore', [ACCOUNT1, 0, 25]);
    expect(latest).toMatchObject({ firstPage: true, lastPage: true });
    expect(latest.txs.map((t: Json) => t.hash)).toEqual([svcHashes[8]]);
    const first = await call<Json>(svc.url, 'ots_searchTransactionsAfter', [ACCOUNT0, 0, 2]);
    expect(first).toMatchObject({ firstPage: false, lastPage: true });
    expect(first.txs.map((t: Json) => t.hash)).toEqual([svcHashes[1], svcHashes[0]]);
  });

  it('ots_searchTransactions finds contracts reached only by internal calls, and created ones their creation, as Anvil does', async () => {
    const hashes = (page: Json) => page.txs.map((t: Json) => t.hash);
    const [store, reverter, loop] = [contractAt(0), contractAt(1), contractAt(2)];
    // Block 6 on: each of the three is called directly; before it, only its deployment and the driver's calls reach it.
    for (const address of [store, reverter, loop]) {
      const [ours, theirs] = await both('ots_searchTransactionsBefore', [address, 6, 25]);
      expect(hashes(ours), address).toEqual(hashes(theirs));
    }
    const reached = await call<Json>(svc.url, 'ots_searchTransactionsBefore', [store, 6, 25]);
    expect(hashes(reached)).toEqual([svcHashes[4], svcHashes[0]]);
    const after = await call<Json>(svc.url, 'ots_searchTransactionsAfter', [reverter, 0, 2]);
    expect(hashes(after)).toEqual([svcHashes[4], svcHashes[1]]);
    // The driver's CREATE and CREATE2 children: their one transaction is the one that created them.
    for (const child of await driverChildren()) {
      const [ours, theirs] = await both('ots_searchTransactionsBefore', [child, 0, 25]);
      expect(hashes(ours), child).toEqual([svcHashes[4]]);
      expect(hashes(theirs), child).toEqual([svcHashes[4]]);
    }
    // svc_getAccountTransactions reads the same index: the store's deployment, the driver's calls, its own call.
    const listed = await call<Json>(svc.url, 'svc_getAccountTransactions', [store, '0x1', '0x6']);
    expect(listed.transactions.map((t: Json) => [t.hash, t.isOutgoing])).toEqual([
      [svcHashes[5], false],
      [svcHashes[4], false],
      [svcHashes[0], false],
    ]);
  });

  it('answers -32602 for a page size over the cap', async () => {
    const err = await call(svc.url, 'ots_searchTransactionsBefore', [ACCOUNT0, 0, 5000]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcCallError);
    expect((err as RpcCallError).code).toBe(-32602);
  });
  // Last: it adds a block of three transactions to svc-node's chain only.
  it('ots_getBlockTransactions pages a block from its end, as Erigon does', async () => {
    await call(svc.url, 'evm_setAutomine', [false]);
    const sent: string[] = [];
    for (let i = 0; i < 3; i++)
      sent.push(await call<string>(svc.url, 'eth_sendTransaction', [{ from: ACCOUNT1, to: ACCOUNT0, value: '0x1' }]));
    await call(svc.url, 'evm_mine', []);
    await call(svc.url, 'evm_setAutomine', [true]);
    const head = await call<string>(svc.url, 'eth_blockNumber', []);
    const hashes = async (page: number) =>
      (await call<Json>(svc.url, 'ots_getBlockTransactions', [Number(head), page, 2])).fullblock.transactions.map(
        (t: Json) => t.hash,
      );
    expect(await hashes(0)).toEqual(sent.slice(1));
    expect(await hashes(1)).toEqual(sent.slice(0, 1));
    const page = await call<Json>(svc.url, 'ots_getBlockTransactions', [head, 0, 2]);
    expect(page.receipts.map((r: Json) => r.transactionHash)).toEqual(sent.slice(1));
  });
});
