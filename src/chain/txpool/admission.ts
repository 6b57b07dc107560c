/**
 * Whether a transaction may enter the pool: the checks that need no state (encoding, chain id, price floor, gas
 * bounds, signature), then those against the sender's account at the head and what the pool holds from it. Each
 * refusal is a `TxRejectedError` whose message starts with geth's wording (see errors.ts).
 */
import type { Address } from '@ethereumjs/util';
import { bytesToHex } from '@ethereumjs/util';
import { txBytes } from '../codec/tx-bytes.js';
import type { PoolAccount, PoolChainView } from './chain-view.js';
import { type PoolTransaction, decodePoolTransaction } from './decode.js';
import { TxRejectedError } from './errors.js';
import type { ResolvedPoolOptions } from './options.js';
import type { PooledTx } from './pooled-tx.js';
import type { SenderRecovery } from './sender-recovery.js';

/** A decoded, statically valid transaction waiting for its account check. */
export interface Candidate {
  readonly tx: PoolTransaction;
  readonly raw: Uint8Array;
  readonly hash: Uint8Array;
  readonly hashHex: string;
  readonly sender: Address;
  readonly senderHex: string;
  readonly cost: bigint;
}

export class TxAdmission {
  constructor(
    private readonly chain: PoolChainView,
    private readonly options: ResolvedPoolOptions,
    private readonly senderRecovery: SenderRecovery,
  ) {}

  /** Checks that need no state: encoding, chain id, known, price floor, gas bounds, then the signature. */
  async checkStatic(raw: Uint8Array, known: (hashHex: string) => boolean): Promise<Candidate> {
    const { maxTxBytes, allowUnprotected, minGasPrice } = this.options;
    if (raw.length > maxTxBytes) {
      throw new TxRejectedError('oversized', `transaction too large: ${raw.length} bytes, the limit is ${maxTxBytes}`, {
        have: BigInt(raw.length),
        limit: BigInt(maxTxBytes),
      });
    }
    const tx = decodePoolTransaction(raw, {
      chainId: this.chain.chainId,
      common: this.chain.commonForNextBlock(),
      allowUnprotected,
    });
    // One serialization serves the stored bytes and the hash (tx.hash() would serialize again).
    const serialized = txBytes(tx);
    const hash = hashOnce(tx, serialized);
    const hashHex = bytesToHex(hash);
    if (known(hashHex)) throw alreadyKnown(hashHex);
    if (tx.gasPrice < minGasPrice) {
      throw new TxRejectedError(
        'gas-price-too-low',
        `transaction underpriced: gas price ${tx.gasPrice} wei is below this node's minimum of ${minGasPrice} wei`,
        { have: tx.gasPrice, minimum: minGasPrice },
      );
    }
    const blockGasLimit = this.chain.blockGasLimit();
    if (tx.gasLimit > blockGasLimit) {
      throw new TxRejectedError(
        'gas-limit-exceeds-block-limit',
        `exceeds block gas limit: the transaction's gas limit ${tx.gasLimit} is above the block gas limit of ${blockGasLimit}`,
        { have: tx.gasLimit, limit: blockGasLimit },
      );
    }
    const intrinsicGas = tx.getIntrinsicGas();
    if (tx.gasLimit < intrinsicGas) {
      throw new TxRejectedError(
        'intrinsic-gas-too-low',
        `intrinsic gas too low: the transaction needs at least ${intrinsicGas} gas before execution, its gas limit is ${tx.gasLimit}`,
        { have: tx.gasLimit, minimum: intrinsicGas },
      );
    }
    const sender = await this.senderRecovery.recover(tx);
    return {
      tx,
      raw: serialized,
      hash,
      hashHex,
      sender,
      senderHex: sender.toString(),
      cost: tx.gasLimit * tx.gasPrice + tx.value,
    };
  }

  /** The sender's account at the head: the nonce not yet used, and enough balance for the most it can cost. */
  checkAccount(candidate: Candidate, account: PoolAccount): void {
    const { tx, senderHex } = candidate;
    if (tx.nonce < account.nonce) {
      throw new TxRejectedError(
        'nonce-too-low',
        `nonce too low: the next nonce of ${senderHex} is ${account.nonce}, the transaction has nonce ${tx.nonce}`,
        { expectedNonce: account.nonce, nonce: tx.nonce },
      );
    }
    if (candidate.cost > account.balance) {
      throw new TxRejectedError(
        'insufficient-funds',
        `insufficient funds for gas * price + value: ${senderHex} has ${account.balance} wei, the transaction needs up to ${candidate.cost} wei`,
        { need: candidate.cost, have: account.balance },
      );
    }
  }

  /** A same-nonce transaction replaces `existing` only if it pays the price bump. */
  checkReplacement(candidate: Candidate, existing: PooledTx): void {
    const { tx, senderHex } = candidate;
    const needed = this.replacementPrice(existing.gasPrice);
    if (tx.gasPrice < needed) {
      throw new TxRejectedError(
        'replacement-underpriced',
        `replacement transaction underpriced: ${senderHex} already has a transaction with nonce ${tx.nonce} at gas price ` +
          `${existing.gasPrice} wei; a replacement needs at least ${needed} wei (+${this.options.priceBumpPercent}%)`,
        { have: tx.gasPrice, minimum: needed, nonce: tx.nonce },
      );
    }
  }

  /** A new nonce from a sender that already holds `held` pooled transactions. */
  checkSenderLimit(candidate: Candidate, held: number): void {
    if (held >= this.options.maxPerSender) {
      throw new TxRejectedError(
        'sender-limit',
        `too many pooled transactions from ${candidate.senderHex}: it has ${held}, the limit is ${this.options.maxPerSender}; ` +
          'wait until some are mined',
        { limit: BigInt(this.options.maxPerSender) },
      );
    }
  }

  /** Lowest gas price that may replace one at `oldPrice`: +priceBump% rounded up, and strictly higher. */
  private replacementPrice(oldPrice: bigint): bigint {
    const bumped = (oldPrice * BigInt(100 + this.options.priceBumpPercent) + 99n) / 100n;
    return bumped > oldPrice ? bumped : oldPrice + 1n;
  }
}

export function alreadyKnown(hashHex: string): TxRejectedError {
  return new TxRejectedError('already-known', `already known: transaction ${hashHex} is already in the pool`);
}

/**
 * `tx.hash()` is keccak256(tx.serialize()), cached on the (frozen) transaction; seed that cache from the
 * serialization we already have, with the Common's keccak as the library would use.
 */
function hashOnce(tx: PoolTransaction, serialized: Uint8Array): Uint8Array {
  const keccak = tx.common.customCrypto.keccak256;
  if (keccak !== undefined && Object.isFrozen(tx)) (tx.cache as { hash?: Uint8Array }).hash ??= keccak(serialized);
  return tx.hash();
}
