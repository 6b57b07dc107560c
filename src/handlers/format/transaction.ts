/**
 * The execution-apis Transaction object. Every signature field is always present (v, r, s; plus yParity and
 * chainId on EIP-2930 transactions, chainId on EIP-155 legacy ones) because ethers v6 refuses transactions
 * without them. The sender is passed in, never recovered here: mined transactions take it from their
 * stored receipt and pooled ones from the pool, so no handler pays for an ecrecover.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { AccessListEntry, Transaction } from '../../generated/types.js';
import { hexFromBytes, toQuantity } from '../hex.js';

/** Where a mined transaction sits. Absent for a pooled (pending) transaction: its block fields are null. */
export interface TxPosition {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly index: number;
  /** The block's timestamp: receipts put it on their logs (`blockTimestamp`). */
  readonly blockTimestamp?: bigint;
}

/** The transaction kinds ETC blocks and the pool hold (legacy and EIP-2930). */
type EtcTransaction = TypedTransaction & { readonly gasPrice: bigint };

function etcTransaction(tx: TypedTransaction): EtcTransaction {
  if (tx.type !== 0 && tx.type !== 1) throw new Error(`transaction type ${tx.type} cannot occur on Ethereum Classic`);
  return tx as EtcTransaction;
}

/** EIP-155: v = chainId * 2 + 35 + yParity; v = 27/28 means the signature names no chain. */
const legacyChainId = (v: bigint): bigint | undefined => (v >= 35n ? (v - 35n) / 2n : undefined);

function accessListOf(tx: TypedTransaction): AccessListEntry[] {
  const raw = (tx as { accessList?: [Uint8Array, Uint8Array[]][] }).accessList ?? [];
  return raw.map(([address, keys]) => ({ address: hexFromBytes(address), storageKeys: keys.map(hexFromBytes) }));
}

export function formatTransaction(input: TypedTransaction, from: Uint8Array, at?: TxPosition): Transaction {
  const tx = etcTransaction(input);
  const v = tx.v ?? 0n;
  const out: Transaction = {
    type: tx.type === 1 ? '0x1' : '0x0',
    hash: hexFromBytes(tx.hash()),
    nonce: toQuantity(tx.nonce),
    blockHash: at ? hexFromBytes(at.blockHash) : null,
    blockNumber: at ? toQuantity(at.blockNumber) : null,
    transactionIndex: at ? toQuantity(at.index) : null,
    from: hexFromBytes(from),
    to: tx.to ? hexFromBytes(tx.to.bytes) : null,
    value: toQuantity(tx.value),
    gasPrice: toQuantity(tx.gasPrice),
    gas: toQuantity(tx.gasLimit),
    input: hexFromBytes(tx.data),
    v: toQuantity(v),
    r: toQuantity(tx.r ?? 0n),
    s: toQuantity(tx.s ?? 0n),
  };
  if (tx.type === 1) {
    out.chainId = toQuantity((tx as { chainId: bigint }).chainId);
    out.accessList = accessListOf(tx);
    out.yParity = toQuantity(v);
  } else {
    const chainId = legacyChainId(v);
    if (chainId !== undefined) out.chainId = toQuantity(chainId);
  }
  return out;
}
