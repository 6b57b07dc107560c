/**
 * Anvil's flags on the dev chain, under Anvil's names, so a Foundry user's command line works unchanged: the test
 * accounts, interval mining from the start, a state file kept across runs, and the order blocks take the pool in.
 */
import { DEV_MNEMONIC, POOL_ORDERS } from '../../chain/index.js';
import * as s from './setting.js';

export const devSettings = {
  'dev.block-time': s.duration({
    flag: 'block-time',
    bareSeconds: true,
    default: 0,
    help: '0 (automine: a block as soon as transactions are pending)',
    description:
      'dev only: interval mining from the start, as Anvil --block-time: automine off, and a block (with whatever is pending) every this long (seconds, or "500ms"); evm_setIntervalMining changes it later',
  }),
  'dev.accounts': s.int({
    flag: 'accounts',
    min: 1,
    max: 10_000,
    default: 10,
    description: 'dev only: how many test accounts are derived from dev.mnemonic, funded at genesis and unlocked',
  }),
  'dev.balance': s.string({
    flag: 'balance',
    placeholder: '<ether>',
    default: '1000000',
    description: 'dev only: the genesis balance of each test account, in ether (decimals allowed)',
  }),
  'dev.mnemonic': s.string({
    flag: 'mnemonic',
    placeholder: '"<words>"',
    default: DEV_MNEMONIC,
    help: 'the well-known test mnemonic of Hardhat and Anvil',
    description:
      "dev only: the BIP-39 mnemonic the test accounts come from (m/44'/60'/0'/0/i, as Anvil and Hardhat derive them). Another mnemonic, count or balance is another genesis, kept in a datadir of its own",
  }),
  'dev.state': s.path({
    flag: 'state',
    placeholder: '<file>',
    default: undefined,
    description:
      'dev only: load the state from this file at start when it exists, and write it there at stop (Ctrl-C, SIGTERM), as Anvil --state; a file that cannot be read as a state stops the start, untouched',
  }),
  'dev.dump-state': s.path({
    flag: 'dump-state',
    placeholder: '<file>',
    default: undefined,
    description:
      "dev only: write the state to this file at stop, in Anvil's --dump-state format (Anvil --load-state reads it)",
  }),
  'dev.state-interval': s.duration({
    flag: 'state-interval',
    bareSeconds: true,
    default: 0,
    help: '0 (only at stop)',
    description:
      'dev only: also write the state file (dev.state, else dev.dump-state) every this long, to a temporary file renamed over it',
  }),
  'dev.order': s.oneOf(POOL_ORDERS, {
    flag: 'order',
    default: 'fees',
    description:
      "dev only: the order a sealed block takes pending transactions in: fees = highest gas price first, fifo = first sent first (each sender's in nonce order either way)",
  }),
};
