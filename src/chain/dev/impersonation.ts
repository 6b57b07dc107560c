/**
 * anvil_impersonateAccount: transactions "from" an account whose key the node does not hold. Each carries a
 * placeholder EIP-155 signature (r = s = 1) and its sender is remembered by hash (exec/sender-address.ts), so the
 * pool admits it and blocks run it as that account's. Only the dev chain's test methods build them.
 */
import type { Common } from '@ethereumjs/common';
import { createLegacyTx, type LegacyTx } from '@ethereumjs/tx';
import { Address, bytesToHex } from '@ethereumjs/util';
import type { UnsignedLegacyTx } from '../accounts/index.js';
import { rememberImpersonatedSender } from '../exec/sender-address.js';

export class Impersonation {
  private readonly accounts = new Set<string>();
  /** anvil_autoImpersonateAccount: every address the node has no key for. */
  auto = false;

  start(address: Uint8Array): void {
    this.accounts.add(bytesToHex(address));
  }

  stop(address: Uint8Array): void {
    this.accounts.delete(bytesToHex(address));
  }

  /** Named with anvil_impersonateAccount (auto impersonation is the caller's fallback after the keys). */
  isImpersonated(address: Uint8Array): boolean {
    return this.accounts.has(bytesToHex(address));
  }

  clear(): void {
    this.accounts.clear();
    this.auto = false;
  }

  /** A transaction from `from` with the placeholder signature, its sender remembered. */
  transaction(from: Uint8Array, fields: UnsignedLegacyTx, common: Common): LegacyTx {
    const chainId = common.chainId();
    const tx = createLegacyTx(
      {
        nonce: fields.nonce,
        gasPrice: fields.gasPrice,
        gasLimit: fields.gasLimit,
        to: fields.to,
        value: fields.value ?? 0n,
        data: fields.data ?? new Uint8Array(0),
        v: chainId * 2n + 35n,
        r: 1n,
        s: 1n,
      },
      { common },
    );
    rememberImpersonatedSender(tx.hash(), new Address(from));
    return tx;
  }
}
