import { describe, expect, it } from 'vitest';
import { TxPool } from '../../../src/chain/txpool/index.js';
import { ETHER, FakeChain, Signer } from './fake-chain.js';

// 2,000 adds keep `npm test` quick; TXPOOL_THROUGHPUT_SENDERS=100 reproduces the 10,000-add figure.
const SENDERS = Number(process.env.TXPOOL_THROUGHPUT_SENDERS ?? 20);
const PER_SENDER = 100;
// TXPOOL_SENDER_RECOVERY=in-thread measures the pool without the sender-recovery worker, for comparison.
const RECOVER_IN_THREAD = process.env.TXPOOL_SENDER_RECOVERY === 'in-thread';

describe('TxPool throughput', () => {
  it(`adds ${SENDERS * PER_SENDER} signed transfers from ${SENDERS} senders (rate printed, not asserted)`, async () => {
    const chain = new FakeChain();
    const signers = Array.from({ length: SENDERS }, (_, i) => Signer.fromSeed(`sender-${i}`));
    for (const s of signers) chain.set(s.address, { nonce: 0n, balance: 100n * ETHER });
    // Interleaved by nonce, as many wallets sending at once would arrive; gas prices vary per sender.
    const raws: Uint8Array[] = [];
    for (let nonce = 0n; nonce < BigInt(PER_SENDER); nonce++) {
      signers.forEach((s, i) => {
        raws.push(s.transfer(nonce, { gasPrice: 1_000_000_000n + BigInt(i) }).serialize());
      });
    }

    const pool = new TxPool(chain, {
      maxSize: SENDERS * PER_SENDER,
      maxPerSender: PER_SENDER,
      senderRecovery: { useWorker: !RECOVER_IN_THREAD },
    });
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const loopBefore = performance.eventLoopUtilization();
    for (const raw of raws) await pool.add(raw);
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const mainThreadBusyMs = performance.eventLoopUtilization(loopBefore).active;

    const cursorStarted = performance.now();
    const ordered = [...pool.executable()];
    const cursorMs = performance.now() - cursorStarted;
    console.log(
      `txpool: ${raws.length} adds in ${elapsedMs.toFixed(0)} ms = ${Math.round((raws.length / elapsedMs) * 1000)} tx/s; ` +
        `price-then-nonce walk of ${ordered.length} in ${cursorMs.toFixed(1)} ms; ` +
        `process CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, main thread busy ${mainThreadBusyMs.toFixed(0)} ms; ` +
        `senders recovered ${JSON.stringify(pool.senderRecoveryCounts)}`,
    );
    await pool.close();

    expect(pool.size).toBe(SENDERS * PER_SENDER);
    expect(pool.pendingCount).toBe(SENDERS * PER_SENDER);
    expect(ordered).toHaveLength(SENDERS * PER_SENDER);
    // The richest-paying sender's whole run comes first, in nonce order.
    expect(ordered.slice(0, PER_SENDER).map((tx) => tx.nonce)).toEqual(
      Array.from({ length: PER_SENDER }, (_, i) => BigInt(i)),
    );
    expect(new Set(ordered.slice(0, PER_SENDER).map((tx) => tx.senderHex))).toEqual(
      new Set([signers[SENDERS - 1].address.toString()]),
    );
  });
});
