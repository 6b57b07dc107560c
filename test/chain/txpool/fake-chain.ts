/**
 * An in-memory PoolChainView over the real dev network rules (chain id 1337, Spiral from block 0,
 * native customCrypto), plus helpers to sign real transactions for it.
 */
import type { Common } from '@ethereumjs/common';
import { createAccessList2930Tx, createLegacyTx, type AccessList2930Tx, type LegacyTx } from '@ethereumjs/tx';
import { Address, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { sharedCommon } from '../../../src/chain/exec/shared-common.js';
import { dev } from '../../../src/chain/networks/index.js';
import { txRulesAt } from '../../../src/chain/rules/index.js';
import type { PoolAccount, PoolChainView } from '../../../src/chain/txpool/index.js';

export const DEV_COMMON: Common = sharedCommon(txRulesAt(dev, 1n));
export const GWEI = 1_000_000_000n;
export const ETHER = 10n ** 18n;
export const RECIPIENT = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));

export class FakeChain implements PoolChainView {
  readonly accounts = new Map<string, PoolAccount>();
  gasLimit = 8_000_000n;
  accountReads = 0;
  /** Runs inside each account read, after the state was captured: lets a test move the head mid-read. */
  duringRead: (() => Promise<void> | void) | undefined;

  constructor(
    readonly chainId: bigint = 1337n,
    private readonly common: Common = DEV_COMMON,
  ) {}

  blockGasLimit(): bigint {
    return this.gasLimit;
  }

  async account(address: Address): Promise<PoolAccount> {
    this.accountReads++;
    const account = this.accounts.get(address.toString()) ?? { nonce: 0n, balance: 0n };
    if (this.duringRead !== undefined) {
      const hook = this.duringRead;
      this.duringRead = undefined;
      await hook();
    }
    return account;
  }

  commonForNextBlock(): Common {
    return this.common;
  }

  set(address: Address, account: PoolAccount): void {
    this.accounts.set(address.toString(), account);
  }
}

export class Signer {
  readonly address: Address;

  constructor(readonly privateKey: Uint8Array) {
    this.address = new Address(privateToAddress(privateKey));
  }

  static fromSeed(seed: string): Signer {
    return new Signer(keccak256(new TextEncoder().encode(seed)));
  }

  transfer(
    nonce: bigint,
    options: { gasPrice?: bigint; gasLimit?: bigint; value?: bigint; data?: Uint8Array; common?: Common } = {},
  ): LegacyTx {
    return createLegacyTx(
      {
        nonce,
        gasPrice: options.gasPrice ?? GWEI,
        gasLimit: options.gasLimit ?? 21_000n,
        to: RECIPIENT,
        value: options.value ?? 1n,
        data: options.data,
      },
      { common: options.common ?? DEV_COMMON },
    ).sign(this.privateKey);
  }

  accessListTransfer(nonce: bigint, options: { gasPrice?: bigint; common?: Common } = {}): AccessList2930Tx {
    return createAccessList2930Tx(
      { nonce, gasPrice: options.gasPrice ?? GWEI, gasLimit: 21_000n, to: RECIPIENT, value: 1n, accessList: [] },
      { common: options.common ?? DEV_COMMON },
    ).sign(this.privateKey);
  }
}
