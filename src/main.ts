/**
 * Entry point of `npm start` and `bin/svc-node.js`: runs the CLI and stops cleanly on SIGINT, SIGTERM or SIGHUP,
 * and, when npm started it, once npm is gone (see parent-watch.ts).
 */
import { startedByNpm, watchParent } from './parent-watch.js';
import { runCli } from './server/cli.js';

const outcome = await runCli(process.argv.slice(2));
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
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  if (startedByNpm()) {
    watchParent((parentPid) => {
      outcome.node.log.warn('parent process gone: stopping', { parentPid });
      stop();
    });
  }
}
