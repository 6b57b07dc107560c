/**
 * `svc-node db prune [--datadir <dir>] [--network …]`: turns an archive datadir into a full one offline. The chain
 * is opened in full mode with no automatic cycles (no RPC server, no peers), one whole cycle runs unsliced with a
 * progress line, and the mode stays recorded as full. A node holding the datadir makes it refuse (LevelDB's lock).
 */
import { ChainEngine, DatabaseLockedError, PRUNED_DATADIR_MESSAGE } from '../chain/index.js';
import { lockedDatadirMessage, removePidFile, writePidFile } from './datadir-pid.js';
import type { SvcNode } from './node.js';
import type { DbCommandResult } from './db-stats-command.js';
import { checkDatadirSchedule } from './fork-schedule.js';
import { builtInNetworkOf, engineOptionsOf } from './services.js';

const MiB = 2 ** 20;

export async function runDbPrune(node: SvcNode, args: readonly string[]): Promise<DbCommandResult> {
  if (args.length > 0) return { exitCode: 2, error: `db prune takes no arguments; write svc-node db prune` };
  const { config, log } = node;
  if (config.fork !== undefined || config.testmode)
    return { exitCode: 2, error: 'db prune: fork and test chains keep every state' };
  const base = engineOptionsOf(node);
  try {
    await checkScheduleBeforePruning(node);
  } catch (err) {
    const message = err instanceof DatabaseLockedError ? lockedDatadirMessage(config.datadir) : messageOf(err);
    return { exitCode: 1, error: `cannot open the chain: ${message}` };
  }
  let engine: ChainEngine;
  try {
    engine = await ChainEngine.open({
      ...base,
      retention: { ...config.state, mode: 'full' },
      pruning: { ...base.pruning, automatic: false },
    });
  } catch (err) {
    const message = err instanceof DatabaseLockedError ? lockedDatadirMessage(config.datadir) : messageOf(err);
    return { exitCode: 1, error: `cannot open the chain: ${message}` };
  }
  writePidFile(config.datadir);
  try {
    const figures = await engine.chain.pruning?.prune(false, (p) =>
      log.info('prune progress', { phase: p.phase, marked: p.marked, scanned: p.scanned, swept: p.swept }),
    );
    if (figures === undefined)
      return { exitCode: 1, error: 'db prune: the cycle did not run (a snap sync is under way)' };
    log.info('prune done', {
      head: engine.chain.getHead().header.number.toString(),
      keptStates: config.state.keepStates,
      marked: figures.marked,
      swept: figures.swept,
      liveMiB: Math.round(figures.liveBytes / MiB),
      diskMiB: `${Math.round(figures.diskBytesBefore / MiB)} -> ${Math.round(figures.diskBytesAfter / MiB)}`,
      seconds: Math.round(figures.seconds * 10) / 10,
    });
    return { exitCode: 0 };
  } catch (err) {
    return { exitCode: 1, error: `db prune failed: ${messageOf(err)}` };
  } finally {
    await engine.close();
    removePidFile(config.datadir);
  }
}

/**
 * Pruning runs no block, but it would keep the states of a chain the given schedule calls invalid: refused as a start
 * is, with its message. Checked on a chain opened as it is stored, before the full-mode open that records the datadir
 * as pruned: a refusal leaves the datadir as it found it.
 */
async function checkScheduleBeforePruning(node: SvcNode): Promise<void> {
  const base = engineOptionsOf(node);
  const quiet = { ...base, pruning: { ...base.pruning, automatic: false } };
  let engine: ChainEngine;
  try {
    engine = await ChainEngine.open({ ...quiet, retention: { ...node.config.state, mode: 'archive' } });
  } catch (err) {
    // Pruned before: opening it in full mode changes nothing in it.
    if ((err as Error).message !== PRUNED_DATADIR_MESSAGE) throw err;
    engine = await ChainEngine.open({ ...quiet, retention: { ...node.config.state, mode: 'full' } });
  }
  try {
    const head = engine.chain.getHead().header.number;
    checkDatadirSchedule(node.config.datadir, builtInNetworkOf(node.config).forks, engine.definition, head, false);
  } finally {
    await engine.close();
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
