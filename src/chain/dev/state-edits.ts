/**
 * The dev chain's direct state writes (anvil_setBalance, setNonce, setCode, setStorageAt, loadState): applied to the
 * state after the head in place (state/edited-roots.ts), so the next block starts from them and its root carries them.
 */
import { Account, Address, setLengthLeft } from '@ethereumjs/util';
import type { OpenedState } from '../state/state-view.js';

export type StateEdit =
  | { readonly kind: 'balance'; readonly address: Uint8Array; readonly balance: bigint }
  /** anvil_addBalance: read and added in the same edit, so nothing between can change the balance it adds to. */
  | { readonly kind: 'addBalance'; readonly address: Uint8Array; readonly amount: bigint }
  | { readonly kind: 'nonce'; readonly address: Uint8Array; readonly nonce: bigint }
  | { readonly kind: 'code'; readonly address: Uint8Array; readonly code: Uint8Array }
  /** `value` is 32 bytes; zero deletes the slot. */
  | { readonly kind: 'storage'; readonly address: Uint8Array; readonly slot: bigint; readonly value: Uint8Array };

type StateManager = OpenedState['stateManager'];

/**
 * Applies `edits` in order; an account that does not exist yet is created empty first. A RangeError (a balance past
 * 2^256) leaves the state as it was: the caller's edit is then not stored.
 */
export async function applyStateEdits(state: StateManager, edits: readonly StateEdit[]): Promise<void> {
  for (const edit of edits) {
    const address = new Address(edit.address);
    const account = (await state.getAccount(address)) ?? new Account();
    switch (edit.kind) {
      case 'balance':
        account.balance = edit.balance;
        await state.putAccount(address, account);
        break;
      case 'addBalance':
        account.balance += edit.amount;
        if (account.balance >= 1n << 256n) throw new RangeError('the balance would reach 2^256');
        await state.putAccount(address, account);
        break;
      case 'nonce':
        account.nonce = edit.nonce;
        await state.putAccount(address, account);
        break;
      case 'code':
        await state.putAccount(address, account);
        await state.putCode(address, edit.code);
        break;
      case 'storage':
        await state.putAccount(address, account);
        await state.putStorage(address, setLengthLeft(bigintBytes(edit.slot), 32), edit.value);
        break;
    }
  }
}

function bigintBytes(n: bigint): Uint8Array {
  const hex = n.toString(16);
  return Uint8Array.from(Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex'));
}
