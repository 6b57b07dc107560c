/**
 * Impersonated transactions skip EIP-3607, as Anvil's do: anvil_impersonateAccount exists to send as an address
 * whose key nobody has, a contract's above all, and runTx refuses any sender with code with no option to skip the
 * check. So for the one read runTx makes of the sender before it (vm/runTx.ts: `getAccount(caller)`, then
 * `fromAccount.codeHash` compared with the empty code hash), the account shows the empty code hash once; every later
 * read, and the account runTx writes back (nonce and balance), keep the real code hash, so the sender keeps its code
 * and its execution is unchanged. Message calls (call.ts) skip the check the same way, for every sender.
 */
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, type Address, KECCAK256_NULL } from '@ethereumjs/util';

type AccountWithFields = Account & { _codeHash: Uint8Array | null };

/** A copy of `account` whose first `codeHash` read answers the empty code's hash. */
function codeHashHiddenOnce(account: Account): Account {
  const copy = Object.assign(Object.create(Account.prototype) as Account, account) as AccountWithFields;
  let hidden = true;
  // Own and not enumerable: a state manager copying the account (Object.assign) copies `_codeHash` alone.
  Object.defineProperty(copy, 'codeHash', {
    configurable: true,
    enumerable: false,
    get(this: AccountWithFields) {
      if (!hidden) return this._codeHash;
      hidden = false;
      return KECCAK256_NULL;
    },
    set(this: AccountWithFields, value: Uint8Array) {
      this._codeHash = value;
    },
  });
  return copy;
}

/** Runs `run` (one runTx) with the sender's code hidden from runTx's EIP-3607 check, on state manager `sm`. */
export async function withoutSenderCodeCheck<T>(
  sm: StateManagerInterface,
  sender: Address,
  run: () => Promise<T>,
): Promise<T> {
  const read = sm.getAccount;
  let armed = true;
  sm.getAccount = async function (this: StateManagerInterface, address: Address) {
    const account = await read.call(this, address);
    if (!armed || account === undefined || !address.equals(sender)) return account;
    armed = false;
    return account.isContract() ? codeHashHiddenOnce(account) : account;
  };
  try {
    return await run();
  } finally {
    // The own property goes: the class's method shows through again.
    delete (sm as { getAccount?: unknown }).getAccount;
    if (sm.getAccount !== read) sm.getAccount = read;
  }
}
