/**
 * Value transfers between externally owned accounts, applied without the EVM.
 *
 * `runTx` costs ~250 µs per transaction here even when nothing executes: message and journal objects,
 * checkpoints, warm sets, and an RLP round trip of every account it touches. A plain transfer's effect
 * is fully known in advance (sender pays intrinsic gas and value, recipient gains value, coinbase gains
 * the fee), so this ledger applies it to decoded accounts kept in a map, and writes the map into the
 * state manager before anything else reads state (a transaction that needs the EVM, rewards, the roots).
 *
 * It only takes what it can prove equivalent to `runTx`, and declines everything else, so the caller
 * falls back to `runTx`, which then gives the library's exact result or error:
 * - rules: Spurious Dragon's EIP-161 (touched empty accounts vanish) and Byzantium's status receipts in
 *   force, and none of the EIPs that change a transfer's economics or side effects (EIP-1559 base fee,
 *   EIP-7623 calldata floor, EIP-7708 transfer logs, block access lists, stateless gas);
 * - transaction: legacy, or EIP-2930 with an empty access list; a recipient, no data, a gas price above 0; the
 *   recipient outside the precompile range (sender, recipient and coinbase may be the same account: a dev node's
 *   first account is its coinbase and the usual sender, and the changes add up on the one account as in runTx);
 * - state: the sender has no code, the right nonce and enough balance for gas limit × price + value; the
 *   recipient has no code; neither recipient nor coinbase is an existing empty account.
 * The conformance suite (`npm run conformance`) runs every state and blockchain test through this path.
 */
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, type Address, KECCAK256_NULL, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { inPrecompileRange } from '../rules/precompiles.js';

/** What a state manager offers that the ledger needs. */
export interface AccountState {
  getAccount(address: Address): Promise<Account | undefined>;
  putAccount(address: Address, account: Account | undefined): Promise<void>;
}

/** A transfer the ledger applied: the gas it used (the intrinsic gas; a codeless recipient runs nothing). */
export interface AppliedTransfer {
  readonly gasUsed: bigint;
  readonly sender: Address;
}

/** EIPs under which a transfer is more than a balance move; any of them active turns the ledger off. */
const TRANSFER_CHANGING_EIPS = [1559, 4762, 6800, 7623, 7708, 7864, 7928, 8037] as const;

export function plainTransfersApply(common: Common): boolean {
  return common.gteHardfork('byzantium') && TRANSFER_CHANGING_EIPS.every((eip) => !common.isActivatedEIP(eip));
}

interface Entry {
  readonly address: Address;
  /** undefined = the account does not exist (and must stay absent unless credited). */
  account: Account | undefined;
  dirty: boolean;
}

export class PlainTransferLedger {
  /** Accounts read or written since the last flush, by address (unprefixed hex). */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly state: AccountState,
    private readonly coinbase: Address,
  ) {}

  /** Applies `tx` when it is a plain transfer that must succeed; `undefined` = not taken, state untouched. */
  async tryApply(candidate: TypedTransaction): Promise<AppliedTransfer | undefined> {
    if (!isPlainTransferShape(candidate)) return undefined;
    const tx = candidate as PricedTx;
    const to = tx.to!;
    const sender = tx.getSenderAddress();
    const gasUsed = tx.getIntrinsicGas();
    if (tx.gasLimit < gasUsed) return undefined;

    // One after another: two of them may be one account (a dev node's sender is often its coinbase), which must be one
    // entry, so that the changes below add up on it as runTx's do (fee out and back in, value out and back in).
    const from = await this.entry(sender);
    const recipient = await this.entry(to);
    const miner = await this.entry(this.coinbase);
    const payer = from.account;
    if (payer === undefined || !equalsBytes(payer.codeHash, KECCAK256_NULL)) return undefined;
    if (payer.nonce !== tx.nonce || payer.balance < tx.gasLimit * tx.gasPrice + tx.value) return undefined;
    if (
      recipient.account !== undefined &&
      (!equalsBytes(recipient.account.codeHash, KECCAK256_NULL) || recipient.account.isEmpty())
    ) {
      return undefined;
    }
    if (miner.account?.isEmpty() === true) return undefined;

    const fee = gasUsed * tx.gasPrice;
    payer.nonce += 1n;
    payer.balance -= fee + tx.value;
    from.dirty = true;
    if (tx.value > 0n) {
      recipient.account ??= new Account();
      recipient.account.balance += tx.value;
      recipient.dirty = true;
    }
    miner.account ??= new Account();
    miner.account.balance += fee;
    miner.dirty = true;
    return { gasUsed, sender };
  }

  /** Writes the changed accounts into the state manager and forgets them; call before anything else reads state. */
  async flush(): Promise<void> {
    for (const entry of this.entries.values()) {
      if (entry.dirty) await this.state.putAccount(entry.address, entry.account);
    }
    this.entries.clear();
  }

  private async entry(address: Address): Promise<Entry> {
    const key = bytesToUnprefixedHex(address.bytes);
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { address, account: await this.state.getAccount(address), dirty: false };
      this.entries.set(key, entry);
    }
    return entry;
  }
}

/** Legacy and EIP-2930 transactions: one gas price, paid in full to the coinbase before EIP-1559. */
type PricedTx = TypedTransaction & { readonly gasPrice: bigint };

function isPlainTransferShape(tx: TypedTransaction): boolean {
  if (tx.type !== 0 && !(tx.type === 1 && (tx as { accessList: unknown[] }).accessList.length === 0)) return false;
  if (tx.to === undefined || tx.data.length !== 0) return false;
  if (!((tx as PricedTx).gasPrice > 0n)) return false;
  return !inPrecompileRange(tx.to.bytes);
}
