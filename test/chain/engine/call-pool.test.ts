/**
 * Calls on worker threads (view/call-pool.ts) answer exactly as the main thread does: the same random calls, at the
 * head and at an older block, with state and block overrides, BLOCKHASH and random programs, run through the pool
 * and through a `CallExecutor` on this thread, compared field by field. And the pool's failure modes: a worker that
 * dies fails the call it ran with `CallWorkerDiedError` naming the cause and the next call is served; a full queue
 * refuses with `CallPoolBusyError`; a queued call past its deadline leaves the queue with `CallTimeoutError`.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { Address, bytesToBigInt } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { CallExecutor, type CallMessage } from '../../../src/chain/exec/call.js';
import { CallTimeoutError } from '../../../src/chain/exec/call-deadline.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import { CallPool, CallPoolBusyError, CallWorkerDiedError } from '../../../src/chain/view/call-pool.js';
import { addresses, deployCounter, encodeCounterCall, mine, signedTx, tempDir } from './fixtures.js';

const PER_WORKER = 2;
const MAX_QUEUED = 3;

/** A deterministic generator (mulberry32), so a failure names a reproducible case. */
function random(seed: number) {
  let a = seed;
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => int(256));
  return { int, pick, bytes, chance: (p: number) => next() < p };
}

type Rng = ReturnType<typeof random>;

/**
 * A random straight-line program over the state: pushes, arithmetic, reads of the block's accounts and slots
 * (BALANCE, EXTCODESIZE, EXTCODEHASH, SLOAD), writes, BLOCKHASH, environment opcodes, and a CALL into Counter.
 */
function program(rng: Rng, counter: Uint8Array): Uint8Array {
  const out: number[] = [];
  const push = (value: Uint8Array) => out.push(0x5f + value.length, ...value);
  const known = [...addresses.slice(0, 3), counter, new Uint8Array(20).fill(0x42)];
  for (let i = 0; i < 12; i++) {
    switch (rng.int(9)) {
      case 0:
        push(rng.pick(known));
        out.push(rng.pick([0x31, 0x3b, 0x3f])); // BALANCE, EXTCODESIZE, EXTCODEHASH
        break;
      case 1:
        push(new Uint8Array([rng.int(4)]));
        out.push(0x54); // SLOAD
        break;
      case 2:
        push(rng.bytes(1 + rng.int(4)));
        push(new Uint8Array([rng.int(4)]));
        out.push(0x55); // SSTORE
        break;
      case 3:
        out.push(0x43, 0x60, 1 + rng.int(3), 0x90, 0x03, 0x40); // BLOCKHASH(NUMBER - k)
        break;
      case 4:
        out.push(rng.pick([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x30, 0x32, 0x33, 0x34, 0x3a, 0x5a]));
        break;
      case 5:
        push(rng.bytes(1 + rng.int(32)));
        push(rng.bytes(1 + rng.int(32)));
        out.push(rng.pick([0x01, 0x02, 0x03, 0x04, 0x06, 0x0a, 0x16, 0x18, 0x1b]));
        break;
      case 6: {
        // CALL(gas, counter, 0, in 0..4, out 0..32) with count()'s selector at memory 0.
        push(encodeCounterCall('count'));
        out.push(0x60, 0xe0, 0x1b, 0x60, 0x00, 0x52); // selector << 224 → MSTORE at 0
        out.push(0x60, 0x20, 0x60, 0x00, 0x60, 0x04, 0x60, 0x00, 0x60, 0x00);
        push(counter);
        out.push(0x5a, 0xf1); // GAS, CALL
        break;
      }
      case 7:
        push(rng.bytes(1 + rng.int(3)));
        out.push(0x50); // POP
        break;
      default:
        push(new Uint8Array([rng.int(64)]));
        out.push(0x51); // MLOAD
    }
  }
  // Return the top of the stack (or revert with it now and then).
  out.push(0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, rng.chance(0.2) ? 0xfd : 0xf3);
  return new Uint8Array(out);
}

function randomMessage(rng: Rng, counter: Uint8Array, head: bigint): CallMessage {
  const from = rng.chance(0.8) ? rng.pick(addresses.slice(0, 4)) : rng.bytes(20);
  const gas = rng.chance(0.3) ? undefined : BigInt(21_000 + rng.int(400_000));
  const value = rng.chance(0.2) ? BigInt(rng.int(1000)) : undefined;
  const gasPrice = rng.chance(0.2) ? BigInt(rng.int(3)) : undefined;
  const base = {
    from,
    ...(gas !== undefined ? { gas } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(gasPrice !== undefined ? { gasPrice } : {}),
  };
  switch (rng.int(5)) {
    case 0:
      return { ...base, to: counter, data: encodeCounterCall(rng.pick(['count', 'owner', 'reset'])) };
    case 1:
      return {
        ...base,
        to: counter,
        data: encodeCounterCall(rng.pick(['increment', 'peekAdd', 'incrementViaCall']), [BigInt(rng.int(5))]),
      };
    case 2: {
      // Random code at a random address through a state override, with a slot of its own and a balance.
      const at = rng.bytes(20);
      const slot = new Map([[`${'0'.repeat(63)}${rng.int(4)}`, rng.bytes(1 + rng.int(8))]]);
      return {
        ...base,
        to: at,
        overrides: {
          state: [[at, { code: program(rng, counter), balance: BigInt(rng.int(10_000)), stateDiff: slot }]],
          ...(rng.chance(0.5)
            ? { block: { number: head + BigInt(rng.int(3)), timestamp: BigInt(rng.int(2 ** 31)) } }
            : {}),
        },
      };
    }
    case 3:
      // A creation running the program as init code.
      return { ...base, data: program(rng, counter) };
    default:
      return {
        ...base,
        to: rng.pick(addresses.slice(0, 4)),
        accessList: rng.chance(0.5) ? [] : undefined,
      } as CallMessage;
  }
}

describe('calls on worker threads', () => {
  const dir = tempDir('call-pool-');
  let chain: Blockchain;
  let pool: CallPool;
  let counter: Uint8Array;

  /** The main thread's answer: a fresh executor on the block's state, as ChainView builds one. */
  function mainThread(block: Block, msg: CallMessage) {
    const inner = chain as unknown as {
      nodes: TrieNodeStore;
      view: { ancestorsOf(header: BlockHeader): EVMMockBlockchainInterface };
    };
    return new CallExecutor({
      store: inner.nodes,
      common: chain.commonAt(block.header.number),
      stateRoot: block.header.stateRoot,
      envBlock: block,
      ancestors: inner.view.ancestorsOf(block.header),
    }).run(msg);
  }

  async function workerReady(count = 1): Promise<void> {
    // The first call starts the worker (and runs here meanwhile).
    await chain.call('latest', { to: counter, data: encodeCounterCall('count') });
    const until = Date.now() + 60_000;
    while (pool.stats.workers < count && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(pool.stats.workers).toBe(count);
  }

  beforeAll(async () => {
    pool = new CallPool({
      workers: 1,
      maxQueued: MAX_QUEUED,
      perWorker: PER_WORKER,
      setup: { network: dev, checkpointing: false },
      executors: 4,
    });
    chain = await Blockchain.open({
      dataDir: dir.dir,
      network: engineNetworkOf(dev),
      rules: etcEngineRules(dev),
      noProof: true,
      callPool: pool,
    });
    counter = await deployCounter(chain);
    // A few more blocks, so BLOCKHASH has ancestors and an older block has another state.
    for (let nonce = 1n; nonce < 4n; nonce++) {
      const data = encodeCounterCall('increment', [nonce]);
      await mine(chain, [signedTx(chain, { from: 0, nonce, to: counter, data, gasLimit: 100_000n })]);
    }
    await workerReady();
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await chain?.close();
    dir.remove();
  });

  it('answers random calls byte for byte as the main thread', async () => {
    const rng = random(40);
    const head = chain.getHead();
    const older = (await chain.getBlock(head.header.number - 2n))!;
    const before = pool.stats.answered;
    const cases = 150;
    for (let i = 0; i < cases; i++) {
      const block = rng.chance(0.7) ? head : older;
      const msg = randomMessage(rng, counter, block.header.number);
      const [pooled, local] = await Promise.all([chain.call(block.hash(), msg), mainThread(block, msg)]);
      expect({ i, ...pooled }, `case ${i}`).toEqual({ i, ...local });
    }
    // Every one of them ran on the worker.
    expect(pool.stats.answered - before).toBe(cases);
  }, 120_000);

  it('answers a dev edit of the head state (a root no header carries) at once, and its undoing', async () => {
    const count = { to: counter, data: encodeCounterCall('count') };
    const before = pool.stats.answered;
    const was = bytesToBigInt((await chain.call('latest', count))!.returnData);
    await chain.editHeadState((state) =>
      state.putStorage(new Address(counter), new Uint8Array(32), new Uint8Array([42])),
    );
    expect(bytesToBigInt((await chain.call('latest', count))!.returnData)).toBe(42n);
    // And back: the first state again, whose reads the worker may still hold.
    await chain.editHeadState((state) =>
      state.putStorage(new Address(counter), new Uint8Array(32), new Uint8Array([Number(was)])),
    );
    expect(bytesToBigInt((await chain.call('latest', count))!.returnData)).toBe(was);
    expect(pool.stats.answered).toBe(before + 3);
  }, 60_000);

  it('answers the call a dying worker ran with CallWorkerDiedError naming the cause, then serves the next', async () => {
    pool.crashWorkerForTest(7);
    const died = chain.call('latest', { to: counter, data: encodeCounterCall('count') });
    await expect(died).rejects.toBeInstanceOf(CallWorkerDiedError);
    await expect(died).rejects.toThrow(/exited with code 7/);
    // The next call is answered (here while the replacement starts), and then by the replacement.
    const msg = { to: counter, data: encodeCounterCall('count') };
    expect(await chain.call('latest', msg)).toEqual(await mainThread(chain.getHead(), msg));
    await workerReady();
    const before = pool.stats.answered;
    expect(await chain.call('latest', msg)).toEqual(await mainThread(chain.getHead(), msg));
    expect(pool.stats.answered).toBe(before + 1);
  }, 120_000);

  it('refuses a call beyond the queue with CallPoolBusyError, and drops a queued call past its deadline', async () => {
    const msg = { to: counter, data: encodeCounterCall('count') };
    const calls = Array.from({ length: PER_WORKER + MAX_QUEUED + 1 }, () => chain.call('latest', msg));
    const settled = await Promise.allSettled(calls);
    const refused = settled.filter((s) => s.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(CallPoolBusyError);
    // A deadline already past: the call waits behind a full worker and leaves the queue at once.
    const busy = Array.from({ length: PER_WORKER }, () => chain.call('latest', msg));
    const late = chain.call('latest', { ...msg, deadline: { at: performance.now() - 1, limitMs: 5 } });
    await expect(late).rejects.toBeInstanceOf(CallTimeoutError);
    await Promise.all(busy);
  }, 60_000);

  it('stops a call running on a worker at its deadline, and the worker serves the next', async () => {
    const at = new Uint8Array(20).fill(0x77);
    const loop = new Uint8Array([0x5b, 0x60, 0x00, 0x56]); // JUMPDEST PUSH1 0 JUMP, until the gas runs out
    const started = performance.now();
    const endless = chain.call('latest', {
      to: at,
      gas: 1_000_000_000n,
      overrides: { state: [[at, { code: loop }]] },
      deadline: { at: performance.now() + 50, limitMs: 50 },
    });
    await expect(endless).rejects.toBeInstanceOf(CallTimeoutError);
    expect(performance.now() - started).toBeLessThan(1500);
    const before = pool.stats.answered;
    const msg = { to: counter, data: encodeCounterCall('count') };
    expect(await chain.call('latest', msg)).toEqual(await mainThread(chain.getHead(), msg));
    expect(pool.stats.answered).toBe(before + 1);
  }, 60_000);

  it('ends its workers on close; calls then run on this thread', async () => {
    await pool.close();
    await new Promise((r) => setImmediate(r));
    expect(pool.stats.workers).toBe(0);
    const msg = { to: counter, data: encodeCounterCall('count') };
    const before = pool.stats.answered;
    expect(await chain.call('latest', msg)).toEqual(await mainThread(chain.getHead(), msg));
    expect(pool.stats.answered).toBe(before);
  });
});
