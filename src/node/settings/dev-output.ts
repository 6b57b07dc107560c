/** What the dev node prints about the transactions it runs: contracts' console.log lines and call traces. */
import * as s from './setting.js';

export const devOutputSettings = {
  'dev.quiet-console': s.bool({
    flag: 'quiet-console',
    default: false,
    description:
      "dev: leave contracts' console.log lines (hardhat's console.sol) out of the node's log; mordor/etc never decode them, so there the setting changes nothing",
  }),
  'dev.print-traces': s.bool({
    flag: 'print-traces',
    default: false,
    description:
      'dev only: print a call trace of each mined transaction in the log (a tree: depth, call type, target, selector, gas used, revert reason)',
  }),
};
