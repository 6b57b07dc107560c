import type { AnvilHandlers } from '../../generated/handlers.js';
import { anvil_addBalance } from './addBalance.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';
import {
  anvil_autoImpersonateAccount,
  anvil_impersonateAccount,
  anvil_stopImpersonatingAccount,
} from './impersonation.js';
import { anvil_metadata } from './info.js';
import { anvil_getAutomine, anvil_mine, evm_setAutomine, evm_setBlockGasLimit, evm_setIntervalMining } from './mine.js';
import { anvil_dropAllTransactions, anvil_dropTransaction, anvil_setCoinbase, anvil_setMinGasPrice } from './pool.js';
import { anvil_reset } from './reset.js';
import { anvil_setLoggingEnabled } from './setLoggingEnabled.js';
import { evm_setTime } from './setTime.js';
import { evm_revert, evm_snapshot } from './snapshot.js';
import { anvil_dumpState, anvil_loadState } from './state-dump.js';
import { anvil_setBalance, anvil_setCode, anvil_setNonce, anvil_setStorageAt } from './state.js';
import { evm_increaseTime, evm_setNextBlockTimestamp } from './time.js';

/** Anvil's test methods on the dev chain, under every name Anvil answers (evm_*, anvil_*, hardhat_*). */
export const anvilHandlers: AnvilHandlers<HandlerContext> = {
  ...methodHandlers.anvil,
  evm_setAccountNonce: anvil_setNonce,
  anvil_snapshot: evm_snapshot,
  anvil_revert: evm_revert,
  anvil_increaseTime: evm_increaseTime,
  anvil_setNextBlockTimestamp: evm_setNextBlockTimestamp,
  anvil_setAutomine: evm_setAutomine,
  anvil_setIntervalMining: evm_setIntervalMining,
  anvil_setBlockGasLimit: evm_setBlockGasLimit,
  hardhat_setBalance: anvil_setBalance,
  hardhat_setCode: anvil_setCode,
  hardhat_setStorageAt: anvil_setStorageAt,
  hardhat_setNonce: anvil_setNonce,
  hardhat_impersonateAccount: anvil_impersonateAccount,
  hardhat_stopImpersonatingAccount: anvil_stopImpersonatingAccount,
  hardhat_autoImpersonateAccount: anvil_autoImpersonateAccount,
  hardhat_getAutomine: anvil_getAutomine,
  hardhat_mine: anvil_mine,
  hardhat_dropTransaction: anvil_dropTransaction,
  hardhat_dropAllTransactions: anvil_dropAllTransactions,
  hardhat_reset: anvil_reset,
  hardhat_setCoinbase: anvil_setCoinbase,
  hardhat_setMinGasPrice: anvil_setMinGasPrice,
  hardhat_dumpState: anvil_dumpState,
  hardhat_loadState: anvil_loadState,
  hardhat_metadata: anvil_metadata,
  hardhat_addBalance: anvil_addBalance,
  hardhat_setLoggingEnabled: anvil_setLoggingEnabled,
  anvil_setTime: evm_setTime,
};
