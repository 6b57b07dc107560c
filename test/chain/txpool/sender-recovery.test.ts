import { RLP } from '@ethereumjs/rlp';
import { type Address, SECP256K1_ORDER, bigIntToUnpaddedBytes, bytesToHex } from '@ethereumjs/util';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { etc } from '../../../src/chain/networks/index.js';
import { sharedCommon } from '../../../src/chain/exec/shared-common.js';
import { txRulesAt } from '../../../src/chain/rules/index.js';
import {
  SenderRecovery,
  TxPool,
  TxRejectedError,
  decodePoolTransaction,
  recoverSender,
  type PoolTransaction,
  type SenderRecoveryOptions,
} from '../../../src/chain/txpool/index.js';
import { DEV_COMMON, ETHER, FakeChain, Signer } from './fake-chain.js';

const signers = Array.from({ length: 10 }, (_, i) => Signer.fromSeed(`recovery-${i}`));
/** Frontier rules sign without a chain id (v = 27/28), the third recovery-id case. */
const FRONTIER_COMMON = sharedCommon(txRulesAt(etc, 1n));

/** Fresh decodes, so no sender or public key is cached yet: legacy EIP-155, type 1, and unprotected legacy. */
function decodedTransactions(count: number): PoolTransaction[] {
  return Array.from({ length: count }, (_, i) => {
    const signer = signers[i % signers.length];
    const nonce = BigInt(Math.floor(i / signers.length));
    const signed =
      i % 5 === 1
        ? signer.accessListTransfer(nonce)
        : i % 5 === 2
          ? signer.transfer(nonce, { common: FRONTIER_COMMON })
          : signer.transfer(nonce, { value: BigInt(i) });
    return decode(signed.serialize());
  });
}

function decode(raw: Uint8Array): PoolTransaction {
  return decodePoolTransaction(raw, { chainId: 1337n, common: DEV_COMMON, allowUnprotected: true });
}

/** A signed transfer whose r is the curve order: well-formed, low s, and recovers no key. */
function unrecoverable(signer: Signer): PoolTransaction {
  const values = signer.transfer(0n).raw() as Uint8Array[];
  return decode(RLP.encode([...values.slice(0, 7), bigIntToUnpaddedBytes(SECP256K1_ORDER), values[8]]));
}

function cacheOf(tx: PoolTransaction): { senderAddress?: Address; senderPubKey?: Uint8Array } {
  return tx.cache as { senderAddress?: Address; senderPubKey?: Uint8Array };
}

/** The service's worker, to kill it as a crash would (there is deliberately no public handle). */
function workerOf(service: SenderRecovery): Worker {
  const worker = (service as unknown as { worker?: Worker }).worker;
  if (worker === undefined) throw new Error('the worker is not running');
  return worker;
}

describe('SenderRecovery', () => {
  const opened: SenderRecovery[] = [];
  // minWorkerBatch 1: every request of a turn goes to the worker, so these tests see its batches whole.
  const open = (options: SenderRecoveryOptions = {}) => {
    const service = new SenderRecovery({ startWorkerAfter: 0, minWorkerBatch: 1, ...options });
    opened.push(service);
    return service;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((service) => service.close()));
  });

  it('recovers 200 senders from 10 keys on the worker, in batched messages, equal to the in-thread results', async () => {
    const service = open();
    expect(await service.whenReady()).toBe(true);
    const txs = decodedTransactions(200);
    expect(new Set(txs.map((tx) => tx.v)).size).toBeGreaterThan(4);
    const senders = await Promise.all(txs.map((tx) => service.recover(tx)));

    expect(service.counts).toEqual({ worker: 200, inThread: 0, messages: 2 });
    txs.forEach((tx, i) => {
      expect(senders[i].toString()).toBe(signers[i % signers.length].address.toString());
      // What @ethereumjs recovers on this thread from an undecorated copy of the same bytes.
      const reference = decode(tx.serialize());
      expect(bytesToHex(cacheOf(tx).senderPubKey!)).toBe(bytesToHex(reference.getSenderPublicKey()));
      expect(reference.getSenderAddress().toString()).toBe(senders[i].toString());
      // Cached where runTx and block validation look, so nothing recovers again.
      expect(cacheOf(tx).senderAddress).toBe(senders[i]);
      expect(tx.getSenderAddress()).toBe(senders[i]);
    });
  });

  it('recovers the first request of a turn at once, and batches the rest of that turn for the worker', async () => {
    const service = open({ minWorkerBatch: 4 });
    expect(await service.whenReady()).toBe(true);
    const [lone, ...rest] = decodedTransactions(9);
    // A lone send waits for no later turn of the event loop: its sender is known before recover returns.
    const loneSender = service.recover(lone);
    expect(cacheOf(lone).senderAddress?.toString()).toBe(signers[0].address.toString());
    expect(service.counts).toEqual({ worker: 0, inThread: 1, messages: 0 });
    expect((await loneSender).toString()).toBe(signers[0].address.toString());

    // Nine in one later turn: the first at once, the other eight in one message.
    await new Promise((next) => setImmediate(next));
    const [first, ...others] = [decode(lone.serialize()), ...rest];
    const senders = await Promise.all([first, ...others].map((tx) => service.recover(tx)));
    expect(service.counts).toEqual({ worker: 8, inThread: 2, messages: 1 });
    expect(senders.map(String)).toEqual(senders.map((_, i) => signers[i % signers.length].address.toString()));
  });

  it('rejects an unrecoverable signature with the in-thread error while the rest of its batch resolves', async () => {
    const service = open();
    await service.whenReady();
    const bad = unrecoverable(signers[0]);
    const good = decodedTransactions(3);
    const results = await Promise.allSettled([good[0], bad, good[1], good[2]].map((tx) => service.recover(tx)));

    const inThreadError = (() => {
      try {
        recoverSender(unrecoverable(signers[0]));
      } catch (error) {
        return error as TxRejectedError;
      }
      throw new Error('the in-thread path recovered a sender');
    })();
    expect(results[1].status).toBe('rejected');
    const error = (results[1] as PromiseRejectedResult).reason as TxRejectedError;
    expect(error).toBeInstanceOf(TxRejectedError);
    expect(error.reason).toBe('invalid-signature');
    expect(error.message).toBe(inThreadError.message);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(service.counts).toEqual({ worker: 4, inThread: 0, messages: 1 });
  });

  it('rejects high-s signatures before any recovery (EIP-2)', async () => {
    const service = open();
    await service.whenReady();
    const values = signers[1].transfer(0n).raw() as Uint8Array[];
    const s = BigInt(bytesToHex(values[8]));
    const highS = decode(RLP.encode([...values.slice(0, 8), bigIntToUnpaddedBytes(SECP256K1_ORDER - s)]));
    await expect(service.recover(highS)).rejects.toThrow(/s-value above secp256k1n\/2/);
    expect(service.counts).toEqual({ worker: 0, inThread: 0, messages: 0 });
  });

  it('recovers in-thread, once warned, when the worker dies with requests in flight and after', async () => {
    const warnings: string[] = [];
    const service = open({ onWarning: (message) => warnings.push(message) });
    await service.whenReady();
    const txs = decodedTransactions(100);
    const pending = Promise.all(txs.map((tx) => service.recover(tx)));
    // The batch is posted in the check phase of this turn; kill the worker right after it left.
    await new Promise((resolve) => setImmediate(resolve));
    expect(service.counts.messages).toBe(1);
    await workerOf(service).terminate();

    const senders = await pending;
    senders.forEach((sender, i) => {
      expect(sender.toString()).toBe(signers[i % signers.length].address.toString());
    });
    expect(service.counts.worker + service.counts.inThread).toBe(100);
    expect(service.counts.inThread).toBeGreaterThan(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/sender-recovery worker stopped/);

    const later = decodedTransactions(20).slice(10);
    const inThreadBefore = service.counts.inThread;
    await Promise.all(later.map((tx) => service.recover(tx)));
    expect(service.counts.inThread - inThreadBefore).toBe(10);
    expect(await service.whenReady()).toBe(false);
    expect(warnings).toHaveLength(1);
  });

  it('settles requests the worker held when it is closed, and recovers in-thread after close', async () => {
    const service = open();
    await service.whenReady();
    const txs = decodedTransactions(30);
    const pending = Promise.all(txs.map((tx) => service.recover(tx)));
    await new Promise((resolve) => setImmediate(resolve));
    await service.close();
    expect((await pending).map(String)).toEqual(txs.map((_, i) => signers[i % signers.length].address.toString()));
    const after = decodedTransactions(1)[0];
    expect((await service.recover(after)).toString()).toBe(signers[0].address.toString());
    expect(service.counts.worker + service.counts.inThread).toBe(31);
  });

  it('starts no worker before `startWorkerAfter` in-thread recoveries', async () => {
    const service = open({ startWorkerAfter: 5 });
    const txs = decodedTransactions(5);
    await Promise.all(txs.map((tx) => service.recover(tx)));
    expect((service as unknown as { worker?: Worker }).worker).toBeUndefined();
    expect(service.counts).toEqual({ worker: 0, inThread: 5, messages: 0 });
  });
});

describe('TxPool sender recovery', () => {
  it('admits transactions through the worker, caches their senders, and keeps working after close()', async () => {
    const chain = new FakeChain();
    for (const signer of signers) chain.set(signer.address, { nonce: 0n, balance: 10n * ETHER });
    const pool = new TxPool(chain, {
      allowUnprotected: true,
      senderRecovery: { startWorkerAfter: 0, minWorkerBatch: 1 },
    });
    // The first adds start the worker and are recovered in-thread meanwhile; a bystander's transfers wait for it.
    const bystander = Signer.fromSeed('bystander');
    chain.set(bystander.address, { nonce: 0n, balance: 10n * ETHER });
    for (let nonce = 0n; pool.senderRecoveryCounts.worker === 0; nonce++) {
      if (nonce === 200n) throw new Error('the worker never took over');
      await pool.add(bystander.transfer(nonce).serialize());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const before = pool.senderRecoveryCounts;
    const raws = decodedTransactions(60).map((tx) => tx.serialize());
    await Promise.all(raws.map((raw) => pool.add(raw)));
    const after = pool.senderRecoveryCounts;
    expect(after.worker - before.worker).toBe(60);
    expect(after.inThread - before.inThread).toBe(0);
    expect(after.messages - before.messages).toBe(1);
    expect(pool.pendingCount).toBe(pool.size);
    for (const pooled of pool.all()) {
      expect(cacheOf(pooled.tx).senderAddress).toBe(pooled.sender);
      expect(pooled.tx.getSenderAddress()).toBe(pooled.sender);
    }

    await pool.close();
    const next = signers[0].transfer(6n);
    expect((await pool.add(next.serialize())).status).toBe('pending');
    expect(pool.get(next.hash())?.senderHex).toBe(signers[0].address.toString());
  });
});
