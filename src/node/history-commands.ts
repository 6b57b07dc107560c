/**
 * `svc-node import <file>…` and `svc-node export <file> [first] [last]`: open the network's chain in the configured
 * datadir (no RPC server, no peers, no miner), move history in or out, close. The work is the engine's
 * (chain/archive/); this module chooses the chain, turns arguments into ranges and failures into one line.
 */
import { bytesToHex } from '@ethereumjs/util';
import { exportHistory, importHistory, DatabaseLockedError, ChainEngine } from '../chain/index.js';
import { lockedDatadirMessage, removePidFile, writePidFile } from './datadir-pid.js';
import type { SvcNode } from './node.js';
import { checkDatadirSchedule } from './fork-schedule.js';
import { builtInNetworkOf, engineOptionsOf } from './services.js';

export type HistoryCommand = 'import' | 'export';
export const HISTORY_COMMANDS: readonly HistoryCommand[] = ['import', 'export'];

export interface HistoryCommandResult {
  readonly exitCode: number;
  /** The one-line reason of a failure (for stderr). */
  readonly error?: string;
}

export async function runHistoryCommand(
  node: SvcNode,
  command: HistoryCommand,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<HistoryCommandResult> {
  const usage = checkArgs(command, args);
  if (usage !== undefined) return { exitCode: 2, error: usage };
  const { config, log } = node;
  const phase = startupPhases(log);
  phase('command');
  let engine: ChainEngine;
  try {
    // An import writes each block's batch behind its execution (db/write-behind.ts: in order, a crash loses at most
    // the unwritten tail and the stored head stays consistent), so the next block executes while LevelDB writes.
    const options = engineOptionsOf(node);
    engine = await ChainEngine.open(
      command === 'import' ? { ...options, writeBehind: true, warmSeals: true } : options,
    );
    phase('chain opened');
  } catch (err) {
    const message = err instanceof DatabaseLockedError ? lockedDatadirMessage(config.datadir) : messageOf(err);
    return { exitCode: 1, error: `cannot open the chain: ${message}` };
  }
  // An import runs blocks under the schedule given now: the same refusal as a start, where a moved fork was passed.
  // An export runs none, but it opened the chain under a schedule its blocks contradict: refused alike, not recorded.
  try {
    checkDatadirSchedule(
      config.datadir,
      builtInNetworkOf(config).forks,
      engine.definition,
      engine.chain.getHead().header.number,
      command === 'import',
    );
  } catch (err) {
    await engine.close();
    return { exitCode: 1, error: `cannot open the chain: ${messageOf(err)}` };
  }
  writePidFile(config.datadir);
  try {
    const chain = engine.chain;
    if (command === 'import') {
      const outcome = await importHistory({
        chain,
        files: args,
        log,
        progressIntervalMs: config.progressIntervalMs,
        onFilesChecked: () => phase('files checked'),
        ...(signal ? { signal } : {}),
      });
      phase('imported');
      const seconds = Math.max(outcome.seconds, 1e-3);
      log.info(outcome.stopped ? 'import stopped' : 'import done', {
        imported: outcome.imported,
        skipped: outcome.skipped,
        seconds: Math.round(outcome.seconds * 10) / 10,
        blocksPerSecond: Math.round(outcome.imported / seconds),
        mgasPerSecond: Math.round((Number(outcome.gasUsed) / 1e6 / seconds) * 100) / 100,
        head: outcome.head.header.number.toString(),
        hash: bytesToHex(outcome.head.hash()),
        stateRoot: bytesToHex(outcome.head.header.stateRoot),
        // Where the importing thread's time went (ms): the next bound of an import, for operators and bench/.
        mainThreadMs: Object.fromEntries(
          Object.entries(outcome.times).map(([k, v]) => [k.replace(/Ms$/, ''), Math.round(v)]),
        ),
      });
      return { exitCode: outcome.stopped ? 130 : 0 };
    }
    const [path, first, last] = args;
    const outcome = await exportHistory({
      chain,
      path,
      ...(first !== undefined ? { first: BigInt(first) } : {}),
      ...(last !== undefined ? { last: BigInt(last) } : {}),
      log,
      progressIntervalMs: config.progressIntervalMs,
      ...(signal ? { signal } : {}),
    });
    log.info(outcome.stopped ? 'export stopped' : 'export done', {
      file: path,
      first: outcome.first.toString(),
      last: outcome.last.toString(),
      blocks: outcome.exported,
    });
    return { exitCode: outcome.stopped ? 130 : 0 };
  } catch (err) {
    // Every failure is the operator's one line (a file, a block and why), never a stack trace; what was imported
    // before it stays imported, and the log says where the chain now stands.
    const head = engine.chain.getHead();
    log.error(`${command} failed`, {
      error: messageOf(err),
      head: head.header.number.toString(),
      hash: bytesToHex(head.hash()),
    });
    return { exitCode: 1, error: `${command} failed: ${messageOf(err)}` };
  } finally {
    await engine.close();
    removePidFile(config.datadir);
    phase('closed');
  }
}

/**
 * Debug lines of a command's phases, each with the ms since the process started and since the previous phase: the
 * time a command spends around its own work (module loading, the chain's open, its close) for operators and bench/.
 */
function startupPhases(log: SvcNode['log']): (name: string) => void {
  let last = 0;
  return (name) => {
    const now = performance.now();
    log.debug('command phase', { phase: name, processMs: Math.round(now), phaseMs: Math.round(now - last) });
    last = now;
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A mistake in the arguments, in one line (cli/flag-errors.ts's style): what is wrong; the command's form. */
function checkArgs(command: HistoryCommand, args: readonly string[]): string | undefined {
  if (command === 'import')
    return args.length === 0 ? 'missing file for import; write svc-node import <file>…' : undefined;
  const form = 'write svc-node export <file> [first] [last]';
  if (args.length === 0) return `missing file for export; ${form}`;
  if (args.length > 3) return `too many arguments for export; ${form}`;
  for (const n of args.slice(1)) if (!/^\d+$/.test(n)) return `export: "${n}" is not a block number; ${form}`;
  return undefined;
}
