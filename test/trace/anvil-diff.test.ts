/**
 * debug_trace* against Anvil: the same contracts and transactions on both nodes (scenario.ts), every tracer's
 * answer compared field by field after undoing the differences listed in openrpc.json (normalize.ts), the
 * struct logger opcode by opcode, and an explorer's pass: debug_traceBlockByNumber with callTracer over 100 blocks.
 * flatCallTracer, which Anvil does not serve, is checked against this node's own trace_transaction and callTracer.
 */
import { createBlockFromRPC } from '@ethereumjs/block';
import { Mainnet, createCustomCommon } from '@ethereumjs/common';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NodeProcess, startNode } from '../helpers/node-process.js';
import { RpcCallError, call } from '../helpers/rpc.js';
import { type AnvilProcess, startAnvil } from './anvil.js';
import { gethErrorOf, normalizeCallFrame, normalizeFourByte, normalizePrestate, structEntry } from './normalize.js';
import { ACCOUNT0, ACCOUNT1, type ScenarioTx, alignAnvil, contractAt, scenario, sendScenario } from './scenario.js';

const COINBASE = '0x000000000000000000000000000000000000c0de';
type Json = any;

let svc: NodeProcess;
let anvil: AnvilProcess;
let txs: ScenarioTx[];
let svcHashes: string[];
let anvilHashes: string[];

/** Mixed transactions after the scenario, one block each, to reach 100 blocks. */
function mixed(count: number): ScenarioTx[] {
  const [store, reverter, loop, driver] = [contractAt(0), contractAt(1), contractAt(2), contractAt(3)];
  const kinds: ((i: number) => ScenarioTx)[] = [
    (i) => ({ name: 'store', to: store, data: `0x${(i + 1).toString(16).padStart(64, '0')}`, gas: 100_000 }),
    () => ({ name: 'transfer', to: ACCOUNT1, value: '0x1', gas: 21_000 }),
    () => ({ name: 'revert', to: reverter, gas: 60_000 }),
    () => ({ name: 'driver', to: driver, value: '0x10', gas: 1_500_000 }),
    () => ({ name: 'out of gas', to: loop, gas: 30_000 }),
  ];
  return Array.from({ length: count }, (_, i) => kinds[i % kinds.length](i));
}

const trace = (url: string, hash: string, config: Json): Promise<Json> =>
  call(url, 'debug_traceTransaction', [hash, config], 120_000);

beforeAll(async () => {
  [svc, anvil] = await Promise.all([startNode({ args: ['--no-p2p', '--miner.coinbase', COINBASE] }), startAnvil()]);
  await alignAnvil(anvil.url, COINBASE);
  const base = scenario();
  txs = [...base, ...mixed(100 - base.length)];
  [svcHashes, anvilHashes] = await Promise.all([sendScenario(svc.url, txs), sendScenario(anvil.url, txs)]);
}, 240_000);

afterAll(async () => {
  await Promise.all([svc?.stop(), anvil?.stop()]);
});

describe('debug_traceTransaction against Anvil (hardfork shanghai, base fee 0)', () => {
  it('sends the same signed transactions to both', () => {
    expect(svcHashes).toEqual(anvilHashes);
  });

  it('callTracer (withLog) matches frame by frame, for every kind of frame and failure', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
      const [ours, theirs] = await Promise.all([
        trace(svc.url, svcHashes[i], config),
        trace(anvil.url, anvilHashes[i], config),
      ]);
      expect(normalizeCallFrame(ours), txs[i].name).toEqual(normalizeCallFrame(theirs));
      const walk = (f: Json): void => {
        seen.add(f.type);
        if (f.error !== undefined) seen.add(f.error);
        for (const c of f.calls ?? []) walk(c);
      };
      walk(ours);
    }
    for (const what of ['CALL', 'DELEGATECALL', 'STATICCALL', 'CALLCODE', 'CREATE', 'CREATE2', 'SELFDESTRUCT'])
      expect(seen, what).toContain(what);
    for (const what of ['execution reverted', 'out of gas', 'write protection']) expect(seen, what).toContain(what);
    const driver = await trace(svc.url, svcHashes[4], { tracer: 'callTracer' });
    expect(driver.calls[4]).toMatchObject({ error: 'execution reverted', revertReason: 'nope' });
    expect(driver.calls[1]).toMatchObject({ type: 'DELEGATECALL', from: contractAt(3), to: contractAt(0) });
    expect(driver.calls[2]).not.toHaveProperty('value');
  });

  it('callTracer keeps the transaction gas limit as the top frame gas, and onlyTopCall drops the calls', async () => {
    const top = await trace(svc.url, svcHashes[4], { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } });
    expect(top.gas).toBe(`0x${txs[4].gas.toString(16)}`);
    expect(top).not.toHaveProperty('calls');
  });

  it('prestateTracer, plain and diffMode, matches account by account and slot by slot', async () => {
    for (let i = 0; i < 12; i++) {
      const receipt = await call(svc.url, 'eth_getTransactionReceipt', [svcHashes[i]]);
      const created = receipt.contractAddress ?? undefined;
      for (const diffMode of [false, true]) {
        const config = { tracer: 'prestateTracer', tracerConfig: { diffMode } };
        const [ours, theirs] = await Promise.all([
          trace(svc.url, svcHashes[i], config),
          trace(anvil.url, anvilHashes[i], config),
        ]);
        expect(normalizePrestate(ours, COINBASE, created, diffMode), `${txs[i].name} diffMode=${diffMode}`).toEqual(
          normalizePrestate(theirs, COINBASE, created, diffMode),
        );
      }
    }
    const diff = await trace(svc.url, svcHashes[4], { tracer: 'prestateTracer', tracerConfig: { diffMode: true } });
    expect(Object.keys(diff.post[contractAt(3)].storage)).toEqual([`0x${'0'.repeat(64)}`]);
  });

  it('4byteTracer matches (precompile calls aside)', async () => {
    for (let i = 0; i < 12; i++) {
      const [ours, theirs, frame] = await Promise.all([
        trace(svc.url, svcHashes[i], { tracer: '4byteTracer' }),
        trace(anvil.url, anvilHashes[i], { tracer: '4byteTracer' }),
        trace(svc.url, svcHashes[i], { tracer: 'callTracer' }),
      ]);
      expect(ours, txs[i].name).toEqual(normalizeFourByte(theirs, frame));
    }
  });

  it('the struct logger matches opcode by opcode (pc, op, gas, gasCost, depth, stack)', async () => {
    let compared = 0;
    for (let i = 0; i < 12; i++) {
      const [ours, theirs] = await Promise.all([
        trace(svc.url, svcHashes[i], {}),
        trace(anvil.url, anvilHashes[i], {}),
      ]);
      expect({ gas: ours.gas, failed: ours.failed, returnValue: ours.returnValue }).toEqual({
        gas: theirs.gas,
        failed: theirs.failed,
        returnValue: theirs.returnValue.replace(/^0x/, ''),
      });
      expect(ours.structLogs.length, txs[i].name).toBe(theirs.structLogs.length);
      // A sample: the first and last 500 opcodes of each transaction (all of them for the others).
      const n = ours.structLogs.length;
      const sample =
        n <= 1000
          ? [...Array(n).keys()]
          : [...Array(500).keys(), ...Array.from({ length: 500 }, (_, k) => n - 500 + k)];
      for (const k of sample) {
        expect(structEntry(ours.structLogs[k], false), `${txs[i].name} #${k}`).toEqual(
          structEntry(theirs.structLogs[k], true),
        );
      }
      compared += sample.length;
    }
    expect(compared).toBeGreaterThan(2000);
  });
});

describe('an explorer pass: debug_traceBlockByNumber with callTracer over 100 blocks', () => {
  it('answers every block with its transactions, as Anvil does', async () => {
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    let frames = 0;
    for (let i = 0; i < txs.length; i++) {
      const [a, b] = await Promise.all([
        call(svc.url, 'eth_getTransactionReceipt', [svcHashes[i]]),
        call(anvil.url, 'eth_getTransactionReceipt', [anvilHashes[i]]),
      ]);
      const [ours, theirs] = await Promise.all([
        call(svc.url, 'debug_traceBlockByNumber', [a.blockNumber, config]),
        call(anvil.url, 'debug_traceBlockByNumber', [b.blockNumber, config]),
      ]);
      expect(ours.map((t: Json) => t.txHash)).toEqual([svcHashes[i]]);
      expect(
        ours.map((t: Json) => normalizeCallFrame(t.result)),
        `block of ${txs[i].name}`,
      ).toEqual(theirs.map((t: Json) => normalizeCallFrame(t.result)));
      const count = (f: Json): number => 1 + (f.calls ?? []).reduce((s: number, c: Json) => s + count(c), 0);
      frames += count(ours[0].result);
    }
    expect(frames).toBeGreaterThan(200);
  });
});

describe('the other entry points', () => {
  it('debug_traceCall runs a call as Anvil traces it', async () => {
    const driverCall = { from: ACCOUNT0, to: contractAt(3), value: '0x64', gas: '0x16e360', gasPrice: '0x3b9aca00' };
    const config = { tracer: 'callTracer', tracerConfig: { withLog: true } };
    const [ours, theirs] = await Promise.all([
      call(svc.url, 'debug_traceCall', [driverCall, 'latest', config]),
      call(anvil.url, 'debug_traceCall', [driverCall, 'latest', config]),
    ]);
    expect(normalizeCallFrame(ours)).toEqual(normalizeCallFrame(theirs));
    expect(ours.calls.length).toBeGreaterThan(5);
  });

  it('debug_traceBlock (RLP), debug_traceBlockByHash and debug_traceBlockByNumber agree', async () => {
    const receipt = await call(svc.url, 'eth_getTransactionReceipt', [svcHashes[4]]);
    const json = await call(svc.url, 'eth_getBlockByHash', [receipt.blockHash, true]);
    const common = createCustomCommon({ chainId: 1337 }, Mainnet, { hardfork: 'berlin' });
    const block = createBlockFromRPC(json, [], { common });
    expect(bytesToHex(block.hash())).toBe(receipt.blockHash);
    const config = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };
    const byRlp = await call(svc.url, 'debug_traceBlock', [bytesToHex(block.serialize()), config]);
    expect(byRlp).toEqual(await call(svc.url, 'debug_traceBlockByHash', [receipt.blockHash, config]));
    expect(byRlp).toEqual(await call(svc.url, 'debug_traceBlockByNumber', [receipt.blockNumber, config]));
    expect(byRlp).toEqual([{ txHash: svcHashes[4], result: await trace(svc.url, svcHashes[4], config) }]);
  });
});

describe('flatCallTracer (geth and core-geth; Anvil answers {})', () => {
  it('is trace_transaction with callTracer top gas, and a revert keeps its result', async () => {
    for (let i = 0; i < 12; i++) {
      const name = txs[i].name;
      const flatConfig = { tracer: 'flatCallTracer', tracerConfig: { convertParityErrors: true } };
      const [flat, parity, frame] = await Promise.all([
        trace(svc.url, svcHashes[i], flatConfig),
        call(svc.url, 'trace_transaction', [svcHashes[i]]),
        trace(svc.url, svcHashes[i], { tracer: 'callTracer' }),
      ]);
      expect(flat[0].action.gas, name).toBe(frame.gas);
      if (flat[0].result !== undefined) expect(flat[0].result.gasUsed, name).toBe(frame.gasUsed);
      // trace_transaction takes the intrinsic gas off the top frame; after a failure geth keeps a result only for
      // a revert (its reason), where trace_transaction has its own rule: results of failed frames are not compared.
      flat[0].action.gas = parity[0].action.gas;
      if (flat[0].result !== undefined && parity[0].result) flat[0].result.gasUsed = parity[0].result.gasUsed;
      for (const [j, f] of flat.entries()) {
        if (f.error === undefined) continue;
        expect(f.result === undefined, `${name} ${f.error}`).toBe(f.error !== 'Reverted');
        f.result = undefined;
        parity[j].result = undefined;
      }
      expect(JSON.parse(JSON.stringify(flat)), name).toEqual(JSON.parse(JSON.stringify(parity)));
    }
    const geth = await trace(svc.url, svcHashes[6], { tracer: 'flatCallTracer' });
    expect(geth[0]).toMatchObject({
      error: 'execution reverted',
      result: { output: expect.stringMatching(/^0x08c379a0/) },
    });
  });

  it('keeps precompile calls with includePrecompiles, and places frames in blocks but not in calls', async () => {
    const withPrecompiles = { tracer: 'flatCallTracer', tracerConfig: { includePrecompiles: true } };
    const [plain, all] = await Promise.all([
      trace(svc.url, svcHashes[4], { tracer: 'flatCallTracer' }),
      trace(svc.url, svcHashes[4], withPrecompiles),
    ]);
    expect(all.length).toBe(plain.length + 1);
    expect(all.map((f: Json) => f.action.to)).toContain('0x0000000000000000000000000000000000000002');
    const receipt = await call(svc.url, 'eth_getTransactionReceipt', [svcHashes[4]]);
    expect(plain[0]).toMatchObject({
      blockHash: receipt.blockHash,
      blockNumber: Number(receipt.blockNumber),
      transactionHash: svcHashes[4],
      transactionPosition: 0,
    });
    const block = await call(svc.url, 'debug_traceBlockByNumber', [receipt.blockNumber, { tracer: 'flatCallTracer' }]);
    expect(block).toEqual([{ txHash: svcHashes[4], result: plain }]);
    const driverCall = { from: ACCOUNT0, to: contractAt(3), value: '0x64', gas: '0x16e360' };
    const called = await call(svc.url, 'debug_traceCall', [driverCall, 'latest', { tracer: 'flatCallTracer' }]);
    expect(called[0]).toMatchObject({ blockHash: null, blockNumber: 0, transactionHash: null, transactionPosition: 0 });
    expect(called.length).toBe(plain.length);
  });
});

describe('tracer names', () => {
  it('refuses an unknown tracer and a JavaScript tracer with -32602 naming the tracers there are', async () => {
    for (const tracer of ['opcodeTracer', '{ data: [], step: function(log) { this.data.push(log.op.toString()) } }']) {
      const err = await trace(svc.url, svcHashes[4], { tracer }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RpcCallError);
      expect((err as RpcCallError).code).toBe(-32602);
      for (const name of ['callTracer', 'flatCallTracer', 'prestateTracer', '4byteTracer', 'noopTracer'])
        expect((err as RpcCallError).message).toContain(name);
    }
    expect(await trace(svc.url, svcHashes[4], { tracer: 'noopTracer' })).toEqual({});
    expect(gethErrorOf('Some(OutOfGas)')).toBe('out of gas');
  });
});
