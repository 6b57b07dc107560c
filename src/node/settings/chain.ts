/** Which chain the node runs, where it keeps it, and how much it says: the settings everything else depends on. */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEV_MNEMONIC, NETWORK_NAMES } from '../../chain/index.js';
import { logLevels } from '../logger.js';
import * as s from './setting.js';

export const chainSettings = {
  'blockchains.network': s.oneOf(NETWORK_NAMES, {
    flag: 'network',
    default: 'dev',
    description:
      'the chain to run: dev (local chain, chain id 1337; instant seal unless --seal ethash), mordor (testnet) or etc (mainnet)',
  }),
  'blockchains.checkpointing': s.bool({
    flag: 'checkpointing',
    default: false,
    description:
      'dev only: ECIP-1097 checkpointing from block 1, federation = dev accounts 7, 8, 9 (2 signatures make a checkpoint)',
  }),
  datadir: s.path({
    flag: 'datadir',
    // Checkpointing changes every header from block 1, so it gets its own default directory (see Blockchain.open).
    // The instant-seal dev chain is another chain than the Ethash one (another genesis): its own directory too, so
    // `--seal ethash` keeps finding the Ethash dev chain where it always was.
    // Other test accounts (--accounts, --balance, --mnemonic) make another genesis: a directory of their own too.
    default: ({ network, checkpointing, seal, devGenesis }) =>
      join(
        homedir(),
        '.svc-node',
        `${checkpointing ? 'dev-checkpointing' : network}${seal === 'instant' ? '-instant' : ''}${accountsSuffix(network, devGenesis)}`,
      ),
    help: '~/.svc-node/<network>; dev: ~/.svc-node/dev-instant (--seal ethash: ~/.svc-node/dev; --checkpointing: dev-checkpointing[-instant]; other --accounts, --balance or --mnemonic: -accounts-<hash> added)',
    description: 'data directory (chain database, keystore, node key)',
  }),
  testmode: s.bool({
    flag: 'testmode',
    default: false,
    description: 'enable the test and debug namespaces (conformance testing)',
  }),
  'logging.level': s.oneOf(logLevels, {
    flag: 'log-level',
    default: 'info',
    description: 'lowest log level written',
  }),
  'logging.quiet': s.bool({
    flag: 'quiet',
    default: false,
    description: 'no start banner at a terminal (URLs, dev accounts and keys); log lines are unchanged',
  }),
  'logging.progress-interval': s.duration({
    flag: 'progress-interval',
    default: 5_000,
    min: 100,
    description: 'how often the import and export commands log their progress line',
  }),
};

/** The test accounts of the defaults: the dev datadir's own. */
const DEFAULT_DEV_GENESIS = [DEV_MNEMONIC, 10, '1000000'].join('\n');

/** `-accounts-<hash>` for a dev chain with other test accounts than the default ten. */
function accountsSuffix(network: string, devGenesis: string | undefined): string {
  if (network !== 'dev' || devGenesis === undefined || devGenesis === DEFAULT_DEV_GENESIS) return '';
  return `-accounts-${createHash('sha256').update(devGenesis).digest('hex').slice(0, 10)}`;
}
