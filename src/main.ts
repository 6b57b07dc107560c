/**
 * Entry point of `npm start` and `bin/svc-node.js`: runs the CLI and stops cleanly on SIGINT, SIGTERM or SIGHUP,
 * and, when npm started it, once npm is gone (see cli/parent-watch.ts).
 */
import { constants } from 'node:os';
import { startedByNpm, watchParent } from './cli/parent-watch.js';
import { runCli } from './cli/cli.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

// The RPC server answers before start-up has finished (peering starts after it): a stop signal in that window is
// held until the node is up and then stops it cleanly, instead of killing it mid-way. A second one ends it at once.
// A subcommand (import, export) sees the same signal as an abort and stops between blocks, leaving a consistent DB.
let stopRequested = false;
const stopCommand = new AbortController();
const holdStop = (signal: NodeJS.Signals) => {
  if (stopRequested) process.exit(128 + constants.signals[signal]);
  stopRequested = true;
  stopCommand.abort();
};
for (const signal of STOP_SIGNALS) process.on(signal, holdStop);

const outcome = await runCli(process.argv.slice(2), process.env, undefined, stopCommand.signal);
for (const signal of STOP_SIGNALS) process.off(signal, holdStop);
if ('exitCode' in outcome) {
  process.exitCode = outcome.exitCode;
} else {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    outcome.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  if (stopRequested) stop();
  else if (startedByNpm()) {
    watchParent((parentPid) => {
      outcome.node.log.warn('parent process gone: stopping', { parentPid });
      stop();
    });
  }
}
