/** The dev node's output settings (`dev.*`, settings/dev-output.ts), checked against the network. */
import type { NetworkName } from '../chain/index.js';
import { ConfigError } from './config-error.js';
import type { readSettings } from './settings/read.js';

export interface DevOutputConfig {
  /** Decode contracts' console.log calls and print their lines (dev, unless `--quiet-console`; never elsewhere). */
  readonly console: boolean;
  /** Print a call trace of each mined transaction (`--print-traces`, dev only). */
  readonly printTraces: boolean;
}

export function devOutputOf(get: ReturnType<typeof readSettings>['get'], network: NetworkName): DevOutputConfig {
  const printTraces = get('dev.print-traces');
  if (printTraces && network !== 'dev')
    throw new ConfigError(
      `dev.print-traces (--print-traces) is for the dev network only: it re-runs every mined transaction, which ${network}'s blocks do not need`,
    );
  // --quiet-console on mordor/etc asks for what is already so: accepted and ignored.
  return { console: network === 'dev' && !get('dev.quiet-console'), printTraces };
}
