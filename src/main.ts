/**
 * Entry point of `npm start` and `bin/svc-node.js`: runs the CLI and stops cleanly on SIGINT, SIGTERM or SIGHUP,
 * and, when npm started it, once npm is gone (see cli/parent-watch.ts).
 */
import { constants } from 'node:os';
import { startedByNpm, watchParent } from './cli/parent-watch.js';
import { runCli } from './cli/cli.js';
import { PLATFORM_NICE, lowerPlatformThreads } from './chain/index.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** What a finished command may leave open when the process ends at once: its stdio and this turn's callbacks. */
const EXIT_IGNORES = new Set(['PipeWrap', 'TTYWrap', 'Immediate']);

// The RPC server answers before start-up has finished (peering starts after it): a stop signal in that window is
// held until the node is up and then stops it cleanly, instead of killing it mid-way. A second one ends it at once.
// One listener for the whole life of the process: removing the last listener of a signal closes Node's watcher,
// which drops a signal already caught but not yet dispatched, so a swap of listeners after start-up lost a SIGTERM
// that came in the last moments of start-up (seen about once in 20 tries).
// A subcommand (import, export) sees the same signal as an abort and stops between blocks, leaving a consistent DB.
let stopRequested = false;
let stopRunning: (() => void) | undefined;
const stopCommand = new AbortController();
const onStopSignal = (signal: NodeJS.Signals) => {
  if (stopRunning !== undefined) return stopRunning();
  if (stopRequested) process.exit(128 + constants.signals[signal]);
  stopRequested = true;
  stopCommand.abort();
};
for (const signal of STOP_SIGNALS) process.on(signal, onStopSignal);

// This process's own threads first: V8's compile and GC helper threads take the cores its main thread leaves, so a
// client's request is not preempted by the JIT (chain/workers/thread-priority.ts). Not in processes that only embed
// the node (tests), whose threads are theirs to schedule.
lowerPlatformThreads(PLATFORM_NICE);

const outcome = await runCli(process.argv.slice(2), process.env, undefined, stopCommand.signal);
if ('exitCode' in outcome) {
  process.exitCode = outcome.exitCode;
  exitOnceFlushed(outcome.exitCode);
} else {
  let stopping = false;
  stopRunning = () => {
    if (stopping) return;
    stopping = true;
    outcome.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  if (stopRequested) stopRunning();
  else if (startedByNpm()) {
    watchParent((parentPid) => {
      outcome.node.log.warn('parent process gone: stopping', { parentPid });
      stopRunning?.();
    });
  }
}

/**
 * A command has closed what it opened (an import's database among them: every block it wrote is on disk), so the
 * process ends once stdout and stderr have flushed, without the teardown of a heap that held the import's caches
 * (a second on a loaded machine). Anything else still running (a child such as the Ethash add-on's background
 * compile, a file being written) keeps the process to its natural end instead.
 */
function exitOnceFlushed(code: number): void {
  const idle = process.getActiveResourcesInfo().every((r) => EXIT_IGNORES.has(r));
  if (!idle) return;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
