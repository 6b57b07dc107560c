/**
 * The dev send's wait (settle.ts): on an automining engine `settled` resolves only once the transaction's block is
 * the head; without automine there is nothing to wait for; the wait follows the pool's drops and is capped.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { afterEach, describe, expect, it } from 'vitest';
import { ChainEngine } from '../engine/engine.js';
import { DEV_ACCOUNTS } from '../networks/index.js';
import type { PooledTx } from './pooled-tx.js';
import { PoolSettle } from './settle.js';
import type { AddTxResult } from './txpool.js';

const dirs: string[] = [];
const engines: ChainEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function openDev(): Promise<ChainEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'settle-'));
  dirs.push(dir);
  const engine = await ChainEngine.open({ dataDir: dir, network: 'dev', seal: 'instant' });
  engines.push(engine);
  return engine;
}

function transfer(engine: ChainEngine, nonce: bigint): Uint8Array {
  const key = hexToBytes(DEV_ACCOUNTS[1]!.privateKey as `0x${string}`);
  const common = engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
  const to = DEV_ACCOUNTS[2]!.address as `0x${string}`;
  return createLegacyTx({ nonce, to, value: 1n, gasLimit: 21_000n, gasPrice: 10n ** 9n }, { common })
    .sign(key)
    .serialize();
}

const inHead = (engine: ChainEngine, hash: Uint8Array) =>
  engine.chain.getHead().transactions.some((tx) => bytesToHex(tx.hash()) === bytesToHex(hash));

describe('ChainEngine.submit on an automining dev engine', () => {
  it('settles once the block holding the transaction is the head, not before', async () => {
    const engine = await openDev();
    engine.miner.start();
    for (let nonce = 0n; nonce < 3n; nonce++) {
      const submitted = await engine.submit(transfer(engine, nonce));
      expect(submitted.status).toBe('pending');
      expect(submitted.settled).toBeDefined();
      expect(inHead(engine, submitted.hash)).toBe(false);
      await submitted.settled;
      expect(inHead(engine, submitted.hash)).toBe(true);
      // The pool's refresh for the block follows the answer (test/server/send-answer-order.test.ts over the wire).
      await engine.poolInStep();
      expect(engine.pool.has(submitted.hash)).toBe(false);
    }
  });

  it('gives nothing to wait for when the miner is stopped or the transaction is queued', async () => {
    const engine = await openDev();
    const stopped = await engine.submit(transfer(engine, 0n));
    expect(stopped.settled).toBeUndefined();
    engine.miner.start();
    const queued = await engine.submit(transfer(engine, 5n));
    expect(queued.status).toBe('queued');
    expect(queued.settled).toBeUndefined();
  });

  it('rejects what the pool rejects, with the pool’s error', async () => {
    const engine = await openDev();
    engine.miner.start();
    await expect(engine.submit(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ reason: 'undecodable' });
  });
});

describe('PoolSettle', () => {
  /** A pool that accepts every transaction as pending and drops only when told. */
  function fakePool() {
    const events = new EventEmitter();
    const hash = new Uint8Array(32).fill(7);
    const pool = {
      add: async (): Promise<AddTxResult> => ({ hash, status: 'pending' }),
      on: (event: string, listener: (...args: any[]) => void) => {
        events.on(event, listener);
        return pool;
      },
    };
    const drop = (h: Uint8Array) =>
      events.emit('tx:dropped', { tx: { hashHex: bytesToHex(h) } as PooledTx, reason: 'mined', detail: 'mined' });
    return { pool, hash, drop };
  }

  const turns = (n: number) => new Promise((resolve) => setTimeout(resolve, n));

  it('waits for its own hash to leave the pool', async () => {
    const { pool, hash, drop } = fakePool();
    const settle = new PoolSettle(pool as never);
    const { settled } = await settle.submit(new Uint8Array(0), true);
    let done = false;
    void settled!.then(() => (done = true));
    drop(new Uint8Array(32).fill(8));
    await turns(20);
    expect(done).toBe(false);
    drop(hash);
    await turns(0);
    expect(done).toBe(true);
  });

  it('answers after the cap when the transaction never leaves', async () => {
    const { pool } = fakePool();
    const settle = new PoolSettle(pool as never, 30);
    const started = performance.now();
    const { settled } = await settle.submit(new Uint8Array(0), true);
    await settled;
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
