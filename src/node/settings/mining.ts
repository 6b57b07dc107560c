/** Sealing and the internal miner. */
import { SEAL_MODES } from '../../chain/index.js';
import * as s from './setting.js';

/** The first account of the dev mnemonic, so dev rewards land in an account the developer holds. */
const DEV_COINBASE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

export const miningSettings = {
  'mining.seal': s.oneOf(SEAL_MODES, {
    flag: 'seal',
    default: ({ network }) => (network === 'dev' ? 'instant' : 'ethash'),
    help: 'dev: instant; mordor/etc: ethash (the only choice)',
    description:
      'how blocks are sealed: instant = no proof of work, nonce and mixHash zero (dev only; another chain than the Ethash dev chain, whose nodes refuse it); ethash = a real Ethash seal (eth_getWork/eth_submitWork, proof-of-work peers)',
  }),
  'mining.mining-enabled': s.bool({
    flag: 'mine',
    default: ({ network }) => network === 'dev',
    help: 'dev: true; mordor/etc: false',
    description: 'run the internal miner (on dev it seals pending transactions at once)',
  }),
  'mining.coinbase': s.string({
    placeholder: '<address>',
    flag: 'miner.coinbase',
    default: ({ network }) => (network === 'dev' ? DEV_COINBASE : undefined),
    help: 'dev: the first test account; mordor/etc: none, and --mine needs one',
    description: 'address credited with the rewards of blocks this node mines',
  }),
  'mining.block-time': s.duration({
    default: 0,
    help: '0 (dev: seal only when transactions are pending)',
    description: 'on dev, also seal an empty block after this long without one (0 = only on demand)',
  }),
  'mining.header-extra-data': s.string({
    default: 'svc-node',
    description: 'extraData of mined blocks (at most 32 bytes)',
  }),
  // None configured: the engine keeps them under the datadir.
  'mining.ethash-cache-dir': s.path({
    flag: 'ethash.cachedir',
    default: undefined,
    help: '<datadir>/ethash',
    description:
      'where Ethash verification caches are kept; nodes on one machine may share it (each epoch is built once, ~2.5 s)',
  }),
};
