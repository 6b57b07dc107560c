/**
 * eth_estimateGas (and eth_sendTransaction without gas, which estimates through the same function) answers a plain
 * value transfer to a codeless account without running it (transfer-estimate.ts). The search by runs stays the
 * reference: every message here is estimated both ways and must get the same answer or the same error, and the
 * shortcut must leave every other message (code, data, precompiles, overrides, a cap below 21,000) to the search.
 */
import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it, vi } from 'vitest';
import type { CallMessage, ChainEngine } from '../../../src/chain/index.js';
import { estimateGas, gasCap, searchGas } from '../../../src/handlers/eth/estimateGas.js';
import { addresses, deployCounter, encodeCounterCall } from '../../chain/engine/fixtures.js';
import { scopedEngines } from '../../chain/engine/scoped-engines.js';

const engines = scopedEngines('transfer-estimate-');
const address = (hex: string) => hexToBytes(hex as `0x${string}`);
const GWEI = 10n ** 9n;

/** The answer, or the error's message, so the two ways compare whole. */
const outcome = (run: () => Promise<bigint>): Promise<bigint | string> =>
  run().catch((err: unknown) => `error: ${(err as Error).message}`);

async function bothWays(engine: ChainEngine, msg: CallMessage, at = engine.chain.getHead()) {
  const calls = vi.spyOn(engine.chain, 'call');
  const fast = await outcome(() => estimateGas(engine, at, msg, 'eth_estimateGas'));
  const runs = calls.mock.calls.length;
  calls.mockRestore();
  const reference = await outcome(async () =>
    searchGas(engine, at, msg, await gasCap(engine, at, msg), 'eth_estimateGas'),
  );
  return { fast, reference, runs };
}

describe('plain transfer estimate', () => {
  it('answers as the search does, without a run for a transfer to a codeless account', async () => {
    const engine = await engines.open({ dataDir: engines.newDir(), network: 'dev', seal: 'instant' });
    const beforeCounter = engine.chain.getHead();
    const counter = await deployCounter(engine.chain);
    const [owner, other] = [addresses[0]!, addresses[1]!];
    const fresh = address('0x7e57000000000000000000000000000000000001');

    const shortcut: Record<string, CallMessage> = {
      'to an account with a balance': { from: owner, to: other, value: 1n },
      'to a fresh account, no value': { from: owner, to: fresh },
      'with a gas price': { from: owner, to: fresh, value: 5n, gasPrice: GWEI },
      'with empty data': { from: owner, to: other, data: new Uint8Array(0), value: 1n },
      'gas exactly 21,000': { from: owner, to: other, value: 1n, gas: 21_000n },
      'no sender, no value': { to: other },
      'the sender itself': { from: owner, to: owner, value: 1n },
    };
    for (const [name, msg] of Object.entries(shortcut)) {
      const { fast, reference, runs } = await bothWays(engine, msg);
      expect({ name, fast }).toEqual({ name, fast: reference });
      expect({ name, fast, runs }).toEqual({ name, fast: 21_000n, runs: 0 });
    }

    const searched: Record<string, CallMessage> = {
      'to a contract, no data': { from: owner, to: counter },
      'to a contract, with data': { from: owner, to: counter, data: encodeCounterCall('increment', [1n]) },
      'to a codeless account, with data': { from: owner, to: other, data: Uint8Array.of(1, 2, 3) },
      'to the identity precompile': { from: owner, to: address(`0x${'0'.repeat(39)}4`), value: 1n },
      'to an address in the precompile range': { from: owner, to: address(`0x${'0'.repeat(36)}ffff`) },
      'gas below 21,000': { from: owner, to: other, value: 1n, gas: 20_999n },
      'with a state override': { from: owner, to: fresh, overrides: { state: [] } },
    };
    for (const [name, msg] of Object.entries(searched)) {
      const { fast, reference, runs } = await bothWays(engine, msg);
      expect({ name, fast }).toEqual({ name, fast: reference });
      expect({ name, searched: runs > 0 }).toEqual({ name, searched: true });
    }
    // The identity precompile costs more than the intrinsic gas: the range rule is what keeps the estimate right.
    expect((await bothWays(engine, searched['to the identity precompile']!)).reference).toBeGreaterThan(21_000n);

    // Refused before any run, both ways alike: a sender that cannot pay the value.
    const poor = { from: address('0x00000000000000000000000000000000000000aa'), to: other, value: 1n };
    const refused = await bothWays(engine, poor);
    expect(refused.fast).toMatch(/^error: insufficient funds/);
    expect(refused.fast).toBe(refused.reference);

    // The recipient's code is read at the block asked: before the deployment the counter's address was codeless.
    const earlier = await bothWays(engine, { from: owner, to: counter }, beforeCounter);
    expect(earlier).toEqual({ fast: 21_000n, reference: 21_000n, runs: 0 });
  });
});
