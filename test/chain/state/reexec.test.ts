/**
 * A trace whose parent state is not kept rebuilds it by re-execution, also when its trie nodes are really gone: a
 * full-mode chain keeping the last 4 states and the one at 4 (head 10), with the root nodes of the states after
 * blocks 5 and 6 deleted from the database (as a pruner would), traces blocks 6 and 7 exactly as it did while those
 * states were kept, and leaves nothing of the re-execution behind.
 */
import { Address, bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { type ChainDB, WriteBatch } from '../../../src/chain/db/chain-db.js';
import { keys } from '../../../src/chain/db/keys.js';
import { StateNotKeptError } from '../../../src/chain/state/retention.js';
import { openState } from '../../../src/chain/state/state-view.js';
import { traceBlock, traceCall } from '../../../src/chain/trace/replay.js';
import type { TraceOptions } from '../../../src/chain/trace/types.js';
import {
  addresses,
  deployCounter,
  encodeCounterCall,
  mine,
  openDevChain,
  signedTx,
  tempDir,
} from '../engine/fixtures.js';

const retention = { mode: 'full', keepStates: 4, checkpointInterval: 4, checkpoints: 1, reexec: 8 } as const;
const CALL: TraceOptions = { tracer: 'callTracer' };
const DIFF: TraceOptions = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

describe('re-execution of states not kept', () => {
  const dir = tempDir('reexec-');
  let chain: Blockchain;
  const hashes: Uint8Array[] = [];
  const reference = new Map<string, unknown>();
  const trace = async (n: number, opts: TraceOptions) => JSON.stringify(await traceBlock(chain, hashes[n]!, opts));
  let counter: Uint8Array;
  /** A call of increment on the state after block 6 (not kept at head 10), with the prestate it touches. */
  const call = async () => {
    const msg = { from: addresses[3]!, to: counter, data: encodeCounterCall('increment', [1n]) };
    return JSON.stringify(
      await traceCall(chain, msg, (await chain.getBlock(hashes[6]!))!, { tracer: 'prestateTracer' }),
    );
  };

  beforeAll(async () => {
    chain = await openDevChain(dir.dir, { retention });
    hashes.push(chain.getGenesis().hash());
    counter = await deployCounter(chain); // 1
    hashes.push(chain.getHead().hash());
    for (let n = 2; n <= 10; n++) {
      const txs = [signedTx(chain, { from: 2, nonce: BigInt(n - 2), to: addresses[6]!, value: BigInt(n) })];
      const data = encodeCounterCall('increment', [BigInt(n)]);
      if (n >= 5 && n <= 7)
        txs.push(signedTx(chain, { from: 3, nonce: BigInt(n - 5), to: counter, data, gasLimit: 200_000n }));
      const { block } = await mine(chain, txs);
      hashes.push(block.hash());
      // Head 7 keeps 4…7: the traces of 6 and 7 replay on kept states.
      if (n === 7) {
        for (const b of [6, 7]) for (const o of [CALL, DIFF]) reference.set(`${b} ${o.tracer}`, await trace(b, o));
        reference.set('call', await call());
      }
    }
    // Head 10 keeps 7…10 and 4. A pruner would remove what only the states of 5 and 6 reach: their roots at least.
    const roots = [5, 6].map(async (n) => (await chain.getHeader(hashes[n]!))!.stateRoot);
    const batch = new WriteBatch();
    for (const root of await Promise.all(roots)) batch.del(keys.state(root));
    await (chain as unknown as { db: ChainDB }).db.write(batch);
    await chain.close();
    chain = await openDevChain(dir.dir, { retention });
  }, 60_000);

  afterAll(async () => {
    await chain?.close();
    dir.remove();
  });

  it('cannot open the states of 5 and 6 any more, and refuses to read them', async () => {
    const header = (await chain.getHeader(hashes[5]!))!;
    const opened = openState(chain.replayBase(header).store, chain.commonAt(5n), header.stateRoot);
    // The library reads a trie whose root is missing as empty (findPath swallows "Missing node in DB"): a replay on
    // that root would see no accounts at all, which is why reads are refused by the policy and traces rebuild.
    expect(await opened.stateManager.getAccount(new Address(addresses[6]!))).toBeUndefined();
    expect(await (await chain.stateAt(7n))!.getBalance(addresses[6]!)).toBeGreaterThan(0n);
    await expect(chain.stateAt(5n)).rejects.toBeInstanceOf(StateNotKeptError);
    await expect(chain.stateAt(hashes[6]!)).rejects.toThrow('state of block 6 is not kept');
  });

  it('traces blocks 6 and 7 from the state at 4 as it did when their parents were kept', async () => {
    for (const b of [6, 7])
      for (const o of [CALL, DIFF]) expect(await trace(b, o)).toBe(reference.get(`${b} ${o.tracer}`));
    expect(JSON.parse(await trace(7, CALL))[0].result.to).toBe(bytesToHex(addresses[6]!));
    expect(await call()).toBe(reference.get('call'));
  });

  it('writes nothing: the deleted roots stay deleted, and out of the shared caches', async () => {
    const db = (chain as unknown as { db: ChainDB }).db;
    for (const n of [5, 6])
      expect(await db.get(keys.state((await chain.getHeader(hashes[n]!))!.stateRoot))).toBeUndefined();
    const header = (await chain.getHeader(hashes[6]!))!;
    const opened = openState(chain.replayBase(header).store, chain.commonAt(6n), header.stateRoot);
    expect(await opened.stateManager.getAccount(new Address(addresses[6]!))).toBeUndefined();
  });

  it("counts the re-executed blocks' nodes against the request's memory budget", async () => {
    const limits = { maxResultBytes: 2_000 };
    await expect(traceBlock(chain, hashes[7]!, { ...CALL, limits })).rejects.toThrow(
      /^re-executing blocks 5\.\.6 to rebuild the state of block 6: trace result of about \d+ bytes is above the limit of 2000 bytes$/,
    );
    // A kept parent needs no re-execution: the same budget passes.
    expect(await traceBlock(chain, hashes[9]!, { ...CALL, limits })).toHaveLength(1);
  });

  it('refuses a trace whose nearest kept state is more than reexec blocks below', async () => {
    await chain.close();
    chain = await openDevChain(dir.dir, { retention: { ...retention, reexec: 1 } });
    // Block 7 replays on 6, two blocks above the kept state at 4.
    await expect(traceBlock(chain, hashes[7]!, CALL)).rejects.toThrow('state of block 6 is not kept');
    expect(await trace(6, CALL)).toBe(reference.get('6 callTracer'));
  });
});
