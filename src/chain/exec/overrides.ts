/**
 * geth's call overrides in engine terms: per-account state replaced for one call (`StateOverrides`), and fields
 * of the block environment replaced for one call (`BlockEnvOverrides`). Nothing here is ever persisted.
 *
 * State overrides sit below the call's own writes and above the block's state (`CallState` consults an
 * `OverrideBase` before its shared reads), so an overridden slot is also the slot's *original* value for
 * EIP-2200 gas: geth finalises the overrides before the call, as if an earlier transaction had written them,
 * and Anvil does the same.
 */
import { type Block, createBlock } from '@ethereumjs/block';
import type { Common, StateManagerInterface } from '@ethereumjs/common';
import {
  Account,
  Address,
  KECCAK256_RLP,
  bytesToUnprefixedHex,
  equalsBytes,
  hexToBytes,
  unpadBytes,
} from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';

/** What one account's override replaces; slot keys are 64 unprefixed lowercase hex digits. */
export interface AccountOverride {
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Uint8Array;
  /** The whole storage: slots not listed read as zero. */
  readonly state?: ReadonlyMap<string, Uint8Array>;
  /** Only the listed slots. */
  readonly stateDiff?: ReadonlyMap<string, Uint8Array>;
}

/** By address. */
export type StateOverrides = readonly (readonly [Uint8Array, AccountOverride])[];

export interface BlockEnvOverrides {
  readonly number?: bigint;
  readonly timestamp?: bigint;
  readonly gasLimit?: bigint;
  readonly coinbase?: Uint8Array;
  readonly difficulty?: bigint;
  /** PREVRANDAO: only on rules with EIP-4399. */
  readonly random?: Uint8Array;
  /** Only on rules with EIP-1559. */
  readonly baseFee?: bigint;
}

/** An override the rules cannot take (answered as invalid params). */
export class InvalidOverrideError extends Error {}

const EMPTY = new Uint8Array(0);

/** One call's overridden accounts, resolved against the block's state; read by `CallState`. */
export class OverrideBase {
  /** By unprefixed address hex. */
  private readonly accounts = new Map<string, Account>();
  private readonly codes = new Map<string, Uint8Array>();
  private readonly slots = new Map<
    string,
    { readonly replaceAll: boolean; readonly values: Map<string, Uint8Array> }
  >();

  account(key: string): Account | undefined {
    return this.accounts.get(key);
  }

  /** The overriding code, while the account still has it (`codeHash` is the account's now). */
  code(key: string, codeHash: Uint8Array): Uint8Array | undefined {
    const code = this.codes.get(key);
    const account = this.accounts.get(key);
    return code !== undefined && account !== undefined && equalsBytes(account.codeHash, codeHash) ? code : undefined;
  }

  /** An overridden slot's value (empty = zero); undefined when the block's value stands. */
  slot(key: string, slot: string): Uint8Array | undefined {
    const storage = this.slots.get(key);
    if (storage === undefined) return undefined;
    return storage.values.get(slot) ?? (storage.replaceAll ? EMPTY : undefined);
  }

  /**
   * The overrides on top of the accounts `read` returns (the block's, or undefined when absent). An account
   * that did not exist comes into being with zero balance and nonce, as in geth.
   */
  static async resolve(
    overrides: StateOverrides,
    read: (address: Address) => Promise<Account | undefined>,
    common: Common,
  ): Promise<OverrideBase> {
    const base = new OverrideBase();
    const hash = common.customCrypto.keccak256 ?? keccak256;
    for (const [address, o] of overrides) {
      if (o.state !== undefined && o.stateDiff !== undefined) {
        throw new InvalidOverrideError(
          `account 0x${bytesToUnprefixedHex(address)} has both state and stateDiff overrides; give one of them`,
        );
      }
      const key = bytesToUnprefixedHex(address);
      const before = await read(new Address(address));
      const account =
        before === undefined
          ? new Account()
          : new Account(before.nonce, before.balance, before.storageRoot, before.codeHash);
      if (o.balance !== undefined) account.balance = o.balance;
      if (o.nonce !== undefined) account.nonce = o.nonce;
      if (o.code !== undefined) {
        account.codeHash = hash(o.code);
        base.codes.set(key, o.code);
      }
      const slots = o.state ?? o.stateDiff;
      if (slots !== undefined) {
        if (o.state !== undefined) account.storageRoot = KECCAK256_RLP;
        const values = new Map<string, Uint8Array>();
        for (const [slot, value] of slots) values.set(slot, unpadBytes(value));
        base.slots.set(key, { replaceAll: o.state !== undefined, values });
      }
      base.accounts.set(key, account);
    }
    return base;
  }
}

/**
 * The block a call sees with `overrides` applied: same parent, state root and rules (the fork rules stay the
 * block's, whatever `number` says), other environment fields replaced.
 */
export function blockWithOverrides(block: Block, overrides: BlockEnvOverrides, common: Common): Block {
  if (overrides.random !== undefined && !common.isActivatedEIP(4399)) {
    throw new InvalidOverrideError(
      'blockOverrides.random: PREVRANDAO exists only after the merge; this chain is proof-of-work (override difficulty)',
    );
  }
  if (overrides.baseFee !== undefined && !common.isActivatedEIP(1559)) {
    throw new InvalidOverrideError('blockOverrides.baseFee: this chain has no base fee (EIP-1559 is not active)');
  }
  const h = block.header;
  return createBlock(
    {
      header: {
        parentHash: h.parentHash,
        uncleHash: h.uncleHash,
        coinbase: overrides.coinbase ?? h.coinbase.bytes,
        stateRoot: h.stateRoot,
        transactionsTrie: h.transactionsTrie,
        receiptTrie: h.receiptTrie,
        logsBloom: h.logsBloom,
        difficulty: overrides.difficulty ?? h.difficulty,
        number: overrides.number ?? h.number,
        gasLimit: overrides.gasLimit ?? h.gasLimit,
        gasUsed: h.gasUsed,
        timestamp: overrides.timestamp ?? h.timestamp,
        extraData: h.extraData,
        mixHash: overrides.random ?? h.mixHash,
        nonce: h.nonce,
        ...(h.baseFeePerGas !== undefined || overrides.baseFee !== undefined
          ? { baseFeePerGas: overrides.baseFee ?? h.baseFeePerGas }
          : {}),
      },
    },
    { common, skipConsensusFormatValidation: true },
  );
}

/** Whether `overrides` changes anything. */
export const hasBlockOverrides = (overrides: BlockEnvOverrides | undefined): overrides is BlockEnvOverrides =>
  overrides !== undefined && Object.values(overrides).some((v) => v !== undefined);

/**
 * Writes `overrides` onto a state manager that is thrown away after one call (debug_traceCall replays on a
 * state of its own rather than a `CallState`): the same fields, `state` clearing the account's storage first.
 */
export async function writeStateOverrides(state: StateManagerInterface, overrides: StateOverrides): Promise<void> {
  for (const [bytes, o] of overrides) {
    if (o.state !== undefined && o.stateDiff !== undefined) {
      throw new InvalidOverrideError(
        `account 0x${bytesToUnprefixedHex(bytes)} has both state and stateDiff overrides; give one of them`,
      );
    }
    const address = new Address(bytes);
    const account = (await state.getAccount(address)) ?? new Account();
    if (o.balance !== undefined) account.balance = o.balance;
    if (o.nonce !== undefined) account.nonce = o.nonce;
    await state.putAccount(address, account);
    if (o.code !== undefined) await state.putCode(address, o.code);
    if (o.state !== undefined) await state.clearStorage(address);
    for (const [slot, value] of o.state ?? o.stateDiff ?? []) {
      await state.putStorage(address, hexToBytes(`0x${slot}`), unpadBytes(value));
    }
  }
}
