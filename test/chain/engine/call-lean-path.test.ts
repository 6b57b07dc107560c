/**
 * Calls run on a per-block shared read cache under a per-call overlay (exec/call-state.ts), and calls to an address
 * take a lean path instead of runTx (exec/call.ts). Both must answer exactly as runTx on the library's state manager
 * did: the same return data, gas used (which eth_estimateGas searches on), revert, error and logs. And the shared
 * reads belong to one block: a new head is answered from its own state, an older block still from its own.
 */
import type { BlockHeader } from '@ethereumjs/block';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { bytesToBigInt, hexToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { CallExecutor, type CallContext, type CallMessage } from '../../../src/chain/exec/call.js';
import type { TrieNodeStore } from '../../../src/chain/state/trie-db.js';
import {
  addresses,
  counterDeployData,
  deployCounter,
  encodeCounterCall,
  mine,
  openDevChain,
  signedTx,
  tempDir,
} from './fixtures.js';
import { seededRandom as seeded } from '../../helpers/seeded-random.js';

const encode = encodeCounterCall;

const address = (hex: string) => hexToBytes(hex as `0x${string}`);

/** The chain's call context of its head, built as Blockchain.call builds it. */
function headContext(chain: Blockchain): CallContext {
  const inner = chain as unknown as {
    nodes: TrieNodeStore;
    view: { ancestorsOf(header: BlockHeader): EVMMockBlockchainInterface };
  };
  const head = chain.getHead();
  return {
    store: inner.nodes,
    common: chain.commonAt(head.header.number),
    stateRoot: head.header.stateRoot,
    envBlock: head,
    ancestors: inner.view.ancestorsOf(head.header),
  };
}

describe('lean call path and shared block reads', () => {
  const dir = tempDir();
  let chain: Blockchain;
  let counter: Uint8Array;

  beforeAll(async () => {
    chain = await openDevChain(dir.dir);
    counter = await deployCounter(chain);
  });
  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  it('answers every kind of call exactly as runTx does', async () => {
    const owner = addresses[0]!;
    const poor = address('0x00000000000000000000000000000000000000aa');
    const messages: Record<string, CallMessage> = {
      view: { to: counter, data: encode('count') },
      'view from owner': { from: owner, to: counter, data: encode('owner') },
      'panic revert': { to: counter, data: encode('peekAdd', [2n ** 256n - 1n]) },
      'write with a log': { from: owner, to: counter, data: encode('increment', [7n]) },
      'Error(string) revert': { from: owner, to: counter, data: encode('increment', [0n]) },
      'nested call (63/64)': { from: owner, to: counter, data: encode('incrementViaCall', [3n]) },
      'refund (cleared slot)': { from: owner, to: counter, data: encode('reset') },
      'reset by another': { from: addresses[1], to: counter, data: encode('reset') },
      'below intrinsic gas': { to: counter, data: encode('count'), gas: 100n },
      'out of gas': { to: counter, data: encode('count'), gas: 21_700n },
      'exact gas limit': { from: owner, to: counter, data: encode('increment', [1n]), gas: 60_000n },
      'value to a non-payable function': { from: owner, to: counter, data: encode('count'), value: 1n },
      'value and gas price to an EOA': {
        from: owner,
        to: addresses[2],
        value: 10n ** 18n,
        gasPrice: 10n ** 9n,
        gas: 21_000n,
      },
      'value from an empty sender (balance raised)': { from: poor, to: addresses[2], value: 5n, gasPrice: 3n },
      'sender with code (no EIP-3607 in calls)': { from: counter, to: addresses[2] },
      'no code at the callee': { to: address('0x00000000000000000000000000000000000000bb'), data: encode('count') },
      'empty data to the contract': { to: counter },
      'precompile sha256': {
        to: address('0x0000000000000000000000000000000000000002'),
        data: new Uint8Array([1, 2, 3]),
      },
      'precompile identity': {
        to: address('0x0000000000000000000000000000000000000004'),
        data: new Uint8Array(100).fill(0),
      },
      creation: { from: owner, data: counterDeployData(1n) },
    };
    const lean = new CallExecutor(headContext(chain));
    const viaRunTx = new CallExecutor(headContext(chain), { leanPath: false, leanFrames: false });
    for (const [name, msg] of Object.entries(messages)) {
      // Twice each: the second runs on a reused VM with warm shared reads.
      for (let round = 0; round < 2; round++) {
        const [a, b] = [await lean.run(msg), await viaRunTx.run(msg)];
        expect({ name, ...a }, name).toEqual({ name, ...b });
      }
    }
    // Sanity: the cases cover what they say.
    const outcome = (msg: CallMessage) => lean.run(msg);
    expect((await outcome(messages['write with a log']!)).logs).toHaveLength(1);
    expect((await outcome(messages['below intrinsic gas']!)).error).toMatch(/INTRINSIC_GAS_TOO_LOW/);
    expect((await outcome(messages['sender with code (no EIP-3607 in calls)']!)).error).toBeUndefined();
    expect((await outcome(messages['refund (cleared slot)']!)).error).toBeUndefined();
  });

  it("answers random calls exactly as runTx on the library's frames does", async () => {
    const random = seeded(40);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const bytes = (n: number) =>
      Uint8Array.from({ length: n }, () => (random() < 0.3 ? 0 : Math.floor(random() * 256)));
    const word = () => pick([0n, 1n, 7n, 2n ** 255n, 2n ** 256n - 1n, BigInt(Math.floor(random() * 1e9))]);
    const precompile = (n: number) => address(`0x${n.toString(16).padStart(40, '0')}`);
    const senders = [
      undefined,
      addresses[0],
      addresses[1],
      address('0x00000000000000000000000000000000000000aa'),
      counter,
    ];
    const data = (): Uint8Array =>
      pick([
        () => encode('count'),
        () => encode('owner'),
        () => encode('peekAdd', [word()]),
        () => encode('increment', [word()]),
        () => encode('incrementViaCall', [word() % 1000n]),
        () => encode('reset'),
        () => bytes(Math.floor(random() * 70)),
      ])();
    const messages: CallMessage[] = [];
    for (let i = 0; i < 150; i++) {
      const kind = random();
      const to =
        kind < 0.7 ? counter : kind < 0.85 ? precompile(1 + Math.floor(random() * 9)) : pick(addresses.slice(0, 3));
      messages.push({
        ...(random() < 0.8 ? { from: pick(senders) } : {}),
        to,
        data: to === counter ? data() : bytes(Math.floor(random() * 200)),
        ...(random() < 0.2 ? { value: pick([1n, 10n ** 18n]) } : {}),
        ...(random() < 0.3 ? { gas: pick([21_000n, 21_500n, 30_000n, 60_000n, 200_000n]) } : {}),
        ...(random() < 0.2 ? { gasPrice: pick([1n, 10n ** 9n]) } : {}),
      });
    }
    const lean = new CallExecutor(headContext(chain));
    const library = new CallExecutor(headContext(chain), { leanPath: false, leanFrames: false });
    let failed = 0;
    for (const [i, msg] of messages.entries()) {
      const [a, b] = [await lean.run(msg), await library.run(msg)];
      expect({ i, ...a }, `call ${i}`).toEqual({ i, ...b });
      if (b.error !== undefined) failed++;
    }
    // Sanity: the mix has calls that fail and calls that succeed.
    expect([failed > 10, failed < messages.length - 10]).toEqual([true, true]);
  });

  it('runs random bytecode (memory, nested frames, precompiles, logs) exactly as the library does', async () => {
    const random = seeded(41);
    const int = (n: number) => Math.floor(random() * n);
    const push = (n: number) => (n < 256 ? [0x60, n] : [0x61, n >> 8, n & 255]);
    // Mostly within a fresh frame's 8 kB of memory, sometimes past it (the memory grows).
    const offset = () => (random() < 0.9 ? int(0x240) : 0x1fe0 + int(0x100));
    const length = () => int(0x61);
    // A stack word: small, or 1 to 32 random bytes (PUSH1..PUSH32).
    const value = (): number[] => {
      if (random() < 0.5) return push(int(256));
      const n = 1 + int(32);
      return [0x5f + n, ...Array.from({ length: n }, () => int(256))];
    };
    const [a, b] = [
      address('0x000000000000000000000000000000000000c0a1'),
      address('0x000000000000000000000000000000000000c0b2'),
    ];
    const program = (callees: readonly Uint8Array[]): Uint8Array => {
      const ops: number[] = [];
      const call = (op: number, to: Uint8Array) => {
        ops.push(...push(length()), ...push(offset()), ...push(length()), ...push(offset()));
        if (op === 0xf1) ops.push(...push(random() < 0.2 ? 1 : 0));
        ops.push(0x73, ...to, 0x5a, op, ...push(offset()), 0x52);
      };
      for (let i = 0, n = 2 + int(10); i < n; i++) {
        const kind = int(11);
        if (kind === 0) ops.push(...value(), ...push(offset()), random() < 0.5 ? 0x52 : 0x53);
        else if (kind === 1) ops.push(...push(offset()), 0x51, ...push(offset()), 0x52);
        else if (kind === 2) ops.push(...push(length()), ...push(offset()), 0x20, ...push(offset()), 0x52);
        else if (kind === 3) call(random() < 0.5 ? 0xf1 : 0xfa, callees[int(callees.length)]!);
        else if (kind === 4) ops.push(...push(int(256)), ...push(length()), ...push(offset()), 0xa1);
        else if (kind === 5) ops.push(0x3d, ...push(0), ...push(offset()), 0x3e);
        else if (kind === 6) ops.push(0x36, ...push(0), ...push(offset()), 0x37);
        else if (kind === 7) ops.push(0x59, ...push(offset()), 0x52);
        else if (kind === 8) ops.push(...push(int(3)), ...push(int(3)), 0x55);
        else if (kind === 9) ops.push(...(random() < 0.5 ? push(int(3)) : value()), 0x54, ...push(offset()), 0x52);
        else ops.push(...push(int(100)), 0x35, ...push(offset()), 0x52);
      }
      const end = int(3);
      if (end < 2) ops.push(...push(length()), ...push(offset()), end === 0 ? 0xf3 : 0xfd);
      return Uint8Array.from(ops);
    };
    const identity = address('0x0000000000000000000000000000000000000004');
    const sha256 = address('0x0000000000000000000000000000000000000002');
    const lean = new CallExecutor(headContext(chain));
    const library = new CallExecutor(headContext(chain), { leanPath: false, leanFrames: false });
    const seen = { reverted: 0, logs: 0, returned: 0 };
    for (let i = 0; i < 120; i++) {
      const overrides = {
        state: [
          [a, { code: program([b, identity, sha256]) }],
          [b, { code: program([identity, sha256]) }],
        ] as const,
      };
      const msg: CallMessage = {
        to: a,
        data: Uint8Array.from({ length: int(80) }, () => int(256)),
        ...(random() < 0.3 ? { gas: 21_000n + BigInt(int(60_000)) } : {}),
        overrides,
      };
      const [x, y] = [await lean.run(msg), await library.run(msg)];
      expect({ i, ...x }, `program ${i}`).toEqual({ i, ...y });
      if (y.reverted) seen.reverted++;
      if (y.logs.length > 0) seen.logs++;
      if (y.returnData.some((byte) => byte !== 0)) seen.returned++;
    }
    expect(Object.values(seen).every((n) => n > 5)).toBe(true);
  });

  it('runs STOP, ADD, SUB, JUMP and JUMPI as the library does: wrap-around, short stacks, invalid targets', async () => {
    const random = seeded(42);
    const int = (n: number) => Math.floor(random() * n);
    const max = Array(32).fill(0xff);
    // The top of the stack stored and returned, so a result is compared, not just the gas.
    const tail = [0x60, 0, 0x52, 0x60, 32, 0x60, 0, 0xf3];
    const cases: number[][] = [
      [0x7f, ...max, 0x60, 2, 0x01, ...tail], // ADD past 2^256
      [0x60, 5, 0x60, 3, 0x03, ...tail], // SUB below zero: 3 - 5
      [0x60, 3, 0x60, 5, 0x03, ...tail],
      [0x60, 1, 0x01], // ADD on one word
      [0x03], // SUB on none
      [0x60, 4, 0x56, 0x00, 0x5b, 0x60, 9, ...tail], // JUMP to a JUMPDEST
      [0x60, 3, 0x56, 0x00], // JUMP to a STOP
      [0x60, 200, 0x56], // JUMP past the code
      [0x61, 0x12, 0x34, 0x56], // JUMP past the code, two bytes
      [0x7f, ...max, 0x56], // JUMP to 2^256 - 1
      [0x60, 4, 0x56, 0x60, 0x5b, 0x00], // JUMP into PUSH data that reads as JUMPDEST
      [0x56], // JUMP on none
      [0x60, 0, 0x60, 200, 0x57, 0x60, 7, ...tail], // JUMPI not taken: any target goes
      [0x60, 1, 0x60, 6, 0x57, 0x00, 0x5b, 0x60, 9, ...tail], // taken
      [0x60, 1, 0x60, 5, 0x57, 0x00], // taken, to a STOP
      [0x60, 1, 0x7f, ...max, 0x57], // taken, to 2^256 - 1
      [0x60, 1, 0x57], // JUMPI on one word
      [0x57], // on none
      [0x60, 1, 0x60, 0, 0x52, 0x00, 0x60, 32, 0x60, 0, 0xf3], // STOP before a RETURN: no return data
      [0x60, 1, 0x60, 1, 0x55, 0x00], // STOP after a write: it stands
    ];
    // Random runs of the five among pushes, DUP1, SWAP1 and JUMPDESTs: loops run out of gas alike.
    const ops = [0x00, 0x01, 0x03, 0x56, 0x56, 0x57, 0x57, 0x5b, 0x80, 0x90];
    for (let i = 0; i < 60; i++) {
      const code: number[] = [];
      for (let n = 0, len = 5 + int(25); n < len; n++) {
        const kind = int(4);
        if (kind === 0) code.push(0x60, int(40));
        else if (kind === 1) code.push(0x60, int(256));
        else if (kind === 2 && random() < 0.3) code.push(0x7f, ...Array.from({ length: 32 }, () => int(256)));
        else code.push(ops[int(ops.length)]!);
      }
      cases.push([...code, ...tail]);
    }
    const at = address('0x000000000000000000000000000000000000f10a');
    const lean = new CallExecutor(headContext(chain));
    const library = new CallExecutor(headContext(chain), { leanPath: false, leanFrames: false });
    const seen = { failed: 0, returned: 0, stopped: 0 };
    for (const [i, code] of cases.entries()) {
      const msg: CallMessage = { to: at, gas: 100_000n, overrides: { state: [[at, { code: Uint8Array.from(code) }]] } };
      const [x, y] = [await lean.run(msg), await library.run(msg)];
      expect({ i, ...x }, `program ${i}`).toEqual({ i, ...y });
      if (y.error !== undefined) seen.failed++;
      else if (y.returnData.length > 0) seen.returned++;
      else seen.stopped++;
    }
    // Sanity: the mix has programs that fail, return and stop.
    expect(Object.values(seen).every((n) => n > 3)).toBe(true);
  });

  it('serves a block from its own reads: a new head sees its state, an older block keeps its own', async () => {
    const count = async (ref: 'latest' | bigint) =>
      bytesToBigInt((await chain.call(ref, { to: counter, data: encode('count') }))!.returnData);
    const before = chain.getHead().header.number;
    expect(await count('latest')).toBe(5n);
    // A call that writes leaves nothing behind in the shared reads.
    expect(
      (await chain.call('latest', { from: addresses[0], to: counter, data: encode('increment', [100n]) }))!.error,
    ).toBeUndefined();
    expect(await count('latest')).toBe(5n);

    await mine(chain, [
      signedTx(chain, { from: 0, nonce: 1n, to: counter, data: encode('increment', [10n]), gasLimit: 100_000n }),
    ]);
    expect(await count('latest')).toBe(15n);
    expect(await count(before)).toBe(5n);
    await mine(chain, [
      signedTx(chain, { from: 0, nonce: 2n, to: counter, data: encode('increment', [1n]), gasLimit: 100_000n }),
    ]);
    expect(await count('latest')).toBe(16n);
    expect(await count(before + 1n)).toBe(15n);
    expect(await count(before)).toBe(5n);

    // The shared reads hold what calls read, per block.
    const executor = new CallExecutor(headContext(chain));
    expect(executor.reads.size).toEqual({ accounts: 0, codes: 0, slots: 0 });
    await executor.run({ to: counter, data: encode('count') });
    const { accounts, codes, slots } = executor.reads.size;
    expect([accounts > 0, codes, slots]).toEqual([true, 1, 1]);
  });
});
