/**
 * The trace engine's default path (a step probe instead of @ethereumjs's `step` event, exec/step-probe.ts; the
 * struct logger written as JSON text, struct-log-text.ts; replays continuing on the reverted parent state of the
 * previous one, replay-states.ts) gives the bytes the generic path gives (`TraceOptions.generic`: the event path,
 * struct-log entries as objects, a fresh state per replay), for every tracer and struct-logger switch, over the
 * trace scenarios (test/trace/evm-asm.ts: every frame kind, reverts, out of gas, a precompile, creations, a
 * self-destruct, logs, storage) and seeded random programs (arithmetic, memory, storage, logs, calls, creations,
 * reverts, invalid opcodes, stack underflows), several per block. Caps stop both paths at the same point.
 * RANDOM_PROGRAMS=<n> (default 16) and RANDOM_SEED=<n> widen or move the random part.
 */
import { createContractAddress, Address, bytesToHex, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { JsonText } from '../../../src/chain/trace/json.js';
import { traceBlock, traceCall, traceTransaction } from '../../../src/chain/trace/replay.js';
import type { TraceOptions } from '../../../src/chain/trace/types.js';
import {
  callLoopRuntime,
  countdownRuntime,
  deployCode,
  driverRuntime,
  loopRuntime,
  memoryGrowRuntime,
  reverterRuntime,
  storeRuntime,
} from '../../trace/evm-asm.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

const PROGRAMS = Number(process.env.RANDOM_PROGRAMS ?? 16);
const SEED = Number(process.env.RANDOM_SEED ?? 40);

const CONFIGS: Readonly<Record<string, TraceOptions>> = {
  'struct logger': {},
  'struct logger, memory and return data': { logger: { enableMemory: true, enableReturnData: true, limit: 400 } },
  'struct logger, no stack, no storage': { logger: { disableStack: true, disableStorage: true } },
  'struct logger, limit 37': { logger: { limit: 37 } },
  callTracer: { tracer: 'callTracer' },
  'callTracer withLog': { tracer: 'callTracer', tracerConfig: { withLog: true } },
  'callTracer onlyTopCall': { tracer: 'callTracer', tracerConfig: { onlyTopCall: true, withLog: true } },
  flatCallTracer: { tracer: 'flatCallTracer' },
  prestateTracer: { tracer: 'prestateTracer' },
  'prestateTracer diffMode': { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
  '4byteTracer': { tracer: '4byteTracer' },
  otsTracer: { tracer: 'otsTracer' },
};

/** An answer's bytes as the RPC layer sends them. */
const text = (result: unknown): string => (result instanceof JsonText ? result.text : JSON.stringify(result));

/** mulberry32: a small seeded generator, so a failing program can be found again from the seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex = (n: number | bigint, bytes: number): string =>
  n
    .toString(16)
    .padStart(bytes * 2, '0')
    .slice(-bytes * 2);
const push = (v: bigint, bytes = 32): string => (0x5f + bytes).toString(16) + hex(v, bytes);

/** Opcodes a random program takes on their own (bytes, hex): they may underflow the stack, which is an outcome too. */
const PLAIN = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '0a',
  '0b',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '1a',
  '1b',
  '1c',
  '1d',
  '30',
  '32',
  '33',
  '34',
  '36',
  '38',
  '3a',
  '3d',
  '41',
  '42',
  '43',
  '45',
  '46',
  '47',
  '50',
  '58',
  '59',
  '5a',
  '80',
  '81',
  '82',
  '83',
  '8f',
  '90',
  '91',
  '92',
  '9f',
];

/** A random contract body: snippets that keep the stack sensible, and now and then a bare opcode. */
function program(next: () => number, targets: readonly string[]): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const small = () => BigInt(Math.floor(next() * 256));
  const word = () => BigInt(`0x${Array.from({ length: 32 }, () => hex(Math.floor(next() * 256), 1)).join('')}`);
  let code = '';
  const length = 5 + Math.floor(next() * 40);
  for (let i = 0; i < length; i++) {
    const kind = Math.floor(next() * 14);
    if (kind === 0)
      code += push(word()) + push(small(), 1) + '52'; // MSTORE
    else if (kind === 1)
      code += push(small(), 1) + '51' + '50'; // MLOAD POP
    else if (kind === 2)
      code += push(word()) + push(small() % 4n, 1) + '55'; // SSTORE
    else if (kind === 3)
      code += push(small() % 4n, 1) + '54' + '50'; // SLOAD POP
    else if (kind === 4)
      code += push(0n, 1) + push(small() % 4n, 1) + '55'; // SSTORE 0 (refund)
    else if (kind === 5) {
      const topics = Math.floor(next() * 3);
      for (let t = 0; t < topics; t++) code += push(word());
      code += push(small() % 64n, 1) + push(small(), 1) + (0xa0 + topics).toString(16); // LOGn
    } else if (kind === 6) {
      // CALL / STATICCALL / DELEGATECALL / CALLCODE of a known contract, a precompile or an empty account.
      const op = pick(['f1', 'fa', 'f4', 'f2']);
      const to = pick([
        ...targets,
        '0000000000000000000000000000000000000002',
        '00000000000000000000000000000000000000aa',
      ]);
      code += push(32n, 1) + push(0n, 1) + push(small() % 64n, 1) + push(0n, 1);
      if (op === 'f1' || op === 'f2') code += push(BigInt(Math.floor(next() * 3)), 1);
      code += push(BigInt(`0x${to}`), 20) + push(BigInt(2_000 + Math.floor(next() * 60_000)), 4) + op + '50';
    } else if (kind === 7) {
      // CREATE or CREATE2 of init code that returns nothing, or reverts.
      const init = next() < 0.5 ? '60006000f3' : '60006000fd';
      code += push(BigInt(`0x${init}`) << 216n) + push(0n, 1) + '52';
      if (next() < 0.5) code += push(5n, 1) + push(0n, 1) + push(0n, 1) + 'f0' + '50';
      else code += push(small()) + push(5n, 1) + push(0n, 1) + push(0n, 1) + 'f5' + '50';
    } else if (kind === 8)
      code += push(small() % 64n, 1) + push(small(), 1) + '20' + '50'; // KECCAK256
    else if (kind === 9) code += pick(PLAIN);
    else if (kind === 10) code += push(word()) + push(word()) + pick(['01', '02', '04', '0a', '1b', '1d']) + '50';
    else if (kind === 11) code += push(BigInt(`0x${pick(targets)}`), 20) + pick(['31', '3b', '3f']) + '50';
    else code += push(small(), 1) + push(small(), 1) + '01' + '50';
  }
  const end = Math.floor(next() * 6);
  if (end === 0)
    code += push(small() % 64n, 1) + push(0n, 1) + 'fd'; // REVERT
  else if (end === 1)
    code += 'fe'; // INVALID
  else if (end === 2)
    code += push(32n, 1) + push(0n, 1) + 'f3'; // RETURN
  else if (end === 3 && next() < 0.3)
    code += push(0xbeefn, 2) + 'ff'; // SELFDESTRUCT
  else code += '00';
  return code;
}

describe('the trace fast path against the generic path', () => {
  const dir = tempDir('trace-fast-');
  let chain: Blockchain;
  let nonce = 0n;
  /** Transactions to trace, by hash hex, with their blocks (hash). */
  const txs: Uint8Array[] = [];
  const blocks: Uint8Array[] = [];
  let countdown: Uint8Array;

  const send = (spec: { to?: Uint8Array; data: string; value?: bigint; gasLimit: bigint }) =>
    signedTx(chain, { from: 0, nonce: nonce++, ...spec, data: hexToBytes(`0x${spec.data.replace(/^0x/, '')}`) });
  const contractAt = (n: bigint) => createContractAddress(new Address(addresses[0]!), n).bytes;

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    const [store, reverter, loop] = [contractAt(0n), contractAt(1n), contractAt(2n)];
    const deploys = [
      send({ data: deployCode(storeRuntime), gasLimit: 300_000n }),
      send({ data: deployCode(reverterRuntime), gasLimit: 300_000n }),
      send({ data: deployCode(loopRuntime), gasLimit: 300_000n }),
      send({
        data: deployCode(driverRuntime(bytesToHex(store), bytesToHex(reverter), bytesToHex(loop))),
        gasLimit: 1_000_000n,
      }),
      send({ data: deployCode(countdownRuntime), gasLimit: 300_000n }),
      send({ data: deployCode(callLoopRuntime), gasLimit: 300_000n }),
      send({ data: deployCode(memoryGrowRuntime), gasLimit: 300_000n }),
    ];
    await mine(chain, deploys);
    const driver = contractAt(3n);
    countdown = contractAt(4n);
    const arg = (n: number) => hex(n, 32);
    const scenario = [
      send({ to: driver, data: '', value: 100n, gasLimit: 1_500_000n }),
      send({ to: store, data: arg(9), gasLimit: 100_000n }),
      send({ to: reverter, data: '', gasLimit: 100_000n }),
      send({ to: loop, data: '', gasLimit: 50_000n }),
      send({ to: addresses[1]!, data: '', value: 10n ** 18n, gasLimit: 21_000n }),
      send({ to: hexToBytes('0x0000000000000000000000000000000000000004'), data: '1234', gasLimit: 30_000n }),
      send({ data: '60006000fd', gasLimit: 100_000n }),
      send({ to: countdown, data: arg(40), gasLimit: 1_000_000n }),
      send({ to: contractAt(5n), data: '', gasLimit: 60_000n }),
      send({ to: contractAt(6n), data: '', gasLimit: 40_000n }),
    ];
    // One block of its own for the driver, the rest together (a trace of a later one replays those before it).
    for (const group of [scenario.slice(0, 1), scenario.slice(1)]) {
      const { block } = await mine(chain, group);
      blocks.push(block.hash());
      txs.push(...group.map((t) => t.hash()));
    }
    const next = random(SEED);
    const targets = [store, reverter, loop, countdown].map((a) => bytesToHex(a).slice(2));
    let programs = 0;
    while (programs < PROGRAMS) {
      const group = [];
      const size = 1 + Math.floor(next() * 4);
      for (let i = 0; i < size && programs < PROGRAMS; i++, programs++) {
        // Each random program is deployed and called with calldata in the same block.
        const deployNonce = nonce;
        group.push(send({ data: deployCode(program(next, targets)), gasLimit: 500_000n }));
        group.push(
          send({ to: contractAt(deployNonce), data: arg(programs), value: BigInt(programs % 3), gasLimit: 400_000n }),
        );
      }
      const { block } = await mine(chain, group);
      blocks.push(block.hash());
      txs.push(...group.map((t) => t.hash()));
    }
  }, 120_000);

  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  for (const [name, opts] of Object.entries(CONFIGS)) {
    it(`${name}: every transaction traced the same`, async () => {
      for (const hash of txs) {
        const generic = text(await traceTransaction(chain, hash, { ...opts, generic: true }));
        const fast = text(await traceTransaction(chain, hash, { ...opts, jsonText: true }));
        expect(fast, `${name} ${bytesToHex(hash)}`).toBe(generic);
        if (opts.tracer === undefined || opts.tracer === 'callTracer') {
          // Again: this replay continues on the state the one before left.
          const again = text(await traceTransaction(chain, hash, { ...opts, jsonText: true }));
          expect(again, `${name} ${bytesToHex(hash)} again`).toBe(generic);
        }
      }
    }, 120_000);
  }

  it('whole blocks traced the same (struct logger, callTracer, prestateTracer)', async () => {
    for (const opts of [CONFIGS['struct logger']!, CONFIGS.callTracer!, CONFIGS.prestateTracer!]) {
      for (const hash of blocks) {
        const generic = JSON.stringify(await traceBlock(chain, hash, { ...opts, generic: true }));
        expect(JSON.stringify(await traceBlock(chain, hash, opts))).toBe(generic);
      }
    }
  }, 120_000);

  it('a traced call the same', async () => {
    const block = (await chain.getBlock(blocks[0]!))!;
    const msg = { from: addresses[2]!, to: countdown, data: hexToBytes(`0x${hex(12, 32)}`) };
    for (const opts of [CONFIGS['struct logger, memory and return data']!, CONFIGS.callTracer!]) {
      const generic = text(await traceCall(chain, msg, block, { ...opts, generic: true }));
      expect(text(await traceCall(chain, msg, block, { ...opts, jsonText: true }))).toBe(generic);
    }
  });

  it('caps stop both paths at the same point', async () => {
    const countdownTx = txs[7]!;
    const caps: TraceOptions[] = [
      { limits: { maxStructLogs: 100 } },
      { limits: { maxResultBytes: 50_000 } },
      { tracer: 'callTracer', limits: { maxResultBytes: 100 } },
    ];
    const outcome = async (hash: Uint8Array, o: TraceOptions) => {
      try {
        return text(await traceTransaction(chain, hash, o));
      } catch (err) {
        return `${(err as Error).name}: ${(err as Error).message}`;
      }
    };
    for (const opts of caps) {
      const generic = await outcome(countdownTx, { ...opts, generic: true });
      expect(generic).toMatch(/TraceLimitError/);
      expect(await outcome(countdownTx, { ...opts, jsonText: true })).toBe(generic);
    }
    // The memory cap passed at every point of transactions with SLOADs and SSTOREs (the driver's calls of store
    // and the random programs), among them an SLOAD's entry, which is charged after the slot's value is read.
    for (const hash of [txs[0]!, txs[1]!, ...txs.slice(11, 17)]) {
      for (let limit = 500; limit < 40_000; limit += 1_300) {
        const opts: TraceOptions = { limits: { maxResultBytes: limit } };
        const generic = await outcome(hash, { ...opts, generic: true });
        expect(await outcome(hash, { ...opts, jsonText: true }), `${bytesToHex(hash)} ${limit}`).toBe(generic);
      }
    }
  });
});
