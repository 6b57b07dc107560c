/** Entry point of `npm start` and `bin/svc-node.js`: runs the CLI and stops cleanly on SIGINT/SIGTERM. */
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
}
