/** Block rewards into a state manager's accounts (a block's last state change; see ChainRules.rewards). */
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, Address } from '@ethereumjs/util';
import type { RewardCredit } from '../rules/engine-types.js';

export async function creditRewards(
  sm: Pick<StateManagerInterface, 'getAccount' | 'putAccount'>,
  rewards: readonly RewardCredit[],
): Promise<void> {
  for (const { address, amount } of rewards) {
    const addr = new Address(address);
    const account = (await sm.getAccount(addr)) ?? new Account();
    account.balance += amount;
    await sm.putAccount(addr, account);
  }
}
