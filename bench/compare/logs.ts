/**
 * eth_getLogs over the last 1k and 10k blocks of a chain where every 100th block holds one Transfer of a token
 * used for nothing else (so each range has exactly blocks/100 matching logs), built with each node's fastest
 * honest block production. The build itself is reported (blocks/s), and the process tree's resident memory
 * once the chain is that long.
 */
import { RECIPIENT, type Fixture } from './fixture.js';
import type { RunningTarget } from './launcher.js';
import { treeRssBytes } from './process-tree.js';
import { CellRecorder, unavailableBecause, type Results } from './results.js';
import { MethodUnavailable, toHex } from './rpc.js';
import { expectSuccess, FIRST_TRANSFER_GAS, type Sender, TRANSFER_TOPIC } from './token.js';

export interface LogOptions {
  /** Query ranges in blocks; the chain is built to the largest. */
  readonly ranges: readonly number[];
  readonly queryRuns: number;
  /** Give up building when the projected time exceeds this (the larger ranges are then n/a). */
  readonly buildBudgetSeconds: number;
  readonly log: (line: string) => void;
}

export interface LogTarget {
  readonly node: RunningTarget;
  readonly fixture: Fixture | undefined;
  readonly fixtureProblem?: string;
}

const LOG_EVERY = 100;

/** Empty blocks by the node's own method, or, where it has none yet, one cheap transaction per block (automine). */
async function appendEmptyBlocks(
  node: RunningTarget,
  sender: Sender,
  count: number,
  state: { viaTransactions: boolean },
): Promise<void> {
  if (!state.viaTransactions) {
    try {
      return await node.target.mineEmpty(node.rpc, count);
    } catch (err) {
      if (!(err instanceof MethodUnavailable) || node.target.id !== 'svc-node') throw err;
      state.viaTransactions = true;
    }
  }
  for (let i = 0; i < count; i++) {
    await sender.send(await sender.signValueTransfer(sender.address));
    await sender.waitAllMined(60_000, 1);
  }
}

export async function runLogs(results: Results, targets: readonly LogTarget[], options: LogOptions): Promise<void> {
  const section = 'Logs and chain length';
  const maxRange = Math.max(...options.ranges);
  const buildLabel = `build ${maxRange} blocks (1 log per ${LOG_EVERY})`;
  const rssLabel = `resident memory after ${maxRange} blocks`;
  const queryLabel = (range: number) => `eth_getLogs over ${range} blocks (${range / LOG_EVERY} logs)`;
  const allNa = (t: LogTarget, why: string) => {
    results.set(section, buildLabel, 'blocks/s', true, t.node.target.id, { unavailable: why });
    for (const r of options.ranges)
      results.set(section, queryLabel(r), 'ms', false, t.node.target.id, { unavailable: why });
  };

  for (const t of targets) {
    const id = t.node.target.id;
    if (!t.fixture) {
      allNa(t, `no ERC-20 fixture: ${t.fixtureProblem ?? 'not prepared'}`);
      continue;
    }
    options.log(`logs: building ${maxRange} blocks on ${id}`);
    const sender = t.fixture.sender;
    const state = { viaTransactions: false };
    let built = 0;
    let token: string;
    let firstBlock: bigint;
    const started = performance.now();
    try {
      // A token of its own, so the writes' Transfers never match the filter.
      const deploy = await sender.signDeploy(10n ** 27n);
      await sender.send(deploy.raw);
      await sender.waitAllMined(60_000, 1);
      token = deploy.address;
      firstBlock = BigInt(await t.node.rpc.call<string>('eth_blockNumber')) + 1n;
      while (built < maxRange) {
        await appendEmptyBlocks(t.node, sender, LOG_EVERY - 1, state);
        // Every transfer may be the recipient's first of this token (~52k gas), so no tight limit here.
        const hash = await sender.send(await sender.signTokenTransfer(token, RECIPIENT, 1n, FIRST_TRANSFER_GAS));
        await sender.waitAllMined(60_000, 1);
        if (built === 0) await expectSuccess(t.node.rpc, hash, 1);
        built += LOG_EVERY;
        const elapsed = (performance.now() - started) / 1000;
        if (built % 1000 === 0) options.log(`  ${id}: ${built} blocks in ${elapsed.toFixed(1)} s`);
        if (built >= 1000 && (elapsed / built) * maxRange > options.buildBudgetSeconds && built < maxRange) {
          options.log(
            `  ${id}: stopping at ${built} blocks: ${maxRange} would take ~${Math.round((elapsed / built) * maxRange)} s`,
          );
          break;
        }
      }
    } catch (err) {
      allNa(t, unavailableBecause(err).unavailable);
      options.log(`  ${id}: ${unavailableBecause(err).unavailable}`);
      continue;
    }
    const buildSeconds = (performance.now() - started) / 1000;
    const how = state.viaTransactions
      ? 'one transaction per block (automine): no block-mining method answered'
      : t.node.target.blockProduction;
    results.set(section, buildLabel, 'blocks/s', true, id, {
      value: built / buildSeconds,
      runs: [built / buildSeconds],
      load: [],
      note: `${built} blocks in ${buildSeconds.toFixed(1)} s via ${how}`,
    });
    results.set('Start-up and memory', rssLabel, 'MiB', false, id, {
      value: treeRssBytes(t.node.pid) / 2 ** 20,
      runs: [],
      load: [],
      note: built < maxRange ? `after only ${built} blocks (build stopped)` : undefined,
    });

    const head = BigInt(await t.node.rpc.call<string>('eth_blockNumber'));
    for (const range of options.ranges) {
      if (range > built) {
        results.set(section, queryLabel(range), 'ms', false, id, {
          unavailable: `chain not built that far (${built} blocks in budget)`,
        });
        continue;
      }
      const filter = {
        fromBlock: toHex(head - BigInt(range) + 1n),
        toBlock: toHex(head),
        address: token,
        topics: [TRANSFER_TOPIC],
      };
      if (head - BigInt(range) + 1n < firstBlock) throw new Error('range starts before the log blocks');
      try {
        const recorder = new CellRecorder();
        for (let run = -1; run < options.queryRuns; run++) {
          const t0 = performance.now();
          const logs = await t.node.rpc.call<unknown[]>('eth_getLogs', [filter]);
          const ms = performance.now() - t0;
          if (logs.length !== range / LOG_EVERY)
            throw new Error(`eth_getLogs returned ${logs.length} logs, expected ${range / LOG_EVERY}`);
          if (run >= 0) recorder.add({ value: ms }); // run -1 is the warm-up
        }
        results.set(section, queryLabel(range), 'ms', false, id, recorder.figure());
        options.log(`  ${queryLabel(range)} ${id}: ${recorder.figure().value.toFixed(1)} ms`);
      } catch (err) {
        results.set(section, queryLabel(range), 'ms', false, id, unavailableBecause(err));
        options.log(`  ${queryLabel(range)} ${id}: ${unavailableBecause(err).unavailable}`);
      }
    }
  }
}
