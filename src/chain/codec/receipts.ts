/**
 * Transaction receipts: the engine's receipt type, its consensus encoding (for receiptsRoot) and the
 * storage encoding (consensus fields plus what RPC needs without re-executing: sender, contract address,
 * gas used by the transaction).
 */
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, concatBytes } from '@ethereumjs/util';
import { mapPacked } from '../base/packed-map.js';
import { unpaddedBytes, unpaddedNumberBytes } from '../base/unpadded-bytes.js';
import { Bloom } from '@ethereumjs/vm';
import { keccak256 } from '../base/crypto.js';
import { orderedTrieRoot } from './ordered-trie.js';
import { encodeRlp } from './rlp-encode.js';
import { txBytes } from './tx-bytes.js';

export interface ReceiptLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
}

export interface TxReceipt {
  /** Transaction type (0 legacy, 1 access list, 2 fee market ...). */
  readonly type: number;
  /** Byzantium (ETC Atlantis) and later: 1 success, 0 failure. */
  readonly status?: 0 | 1;
  /** Before Byzantium: the state root after the transaction. */
  readonly stateRoot?: Uint8Array;
  readonly cumulativeGasUsed: bigint;
  /** Gas charged for this transaction alone. */
  readonly gasUsed: bigint;
  readonly logs: readonly ReceiptLog[];
  readonly logsBloom: Uint8Array;
  /** Sender, recovered at execution time. */
  readonly from: Uint8Array;
  /** Address of the contract a creation transaction deployed (also set when the creation failed). */
  readonly contractAddress?: Uint8Array;
  /**
   * Accounts the execution reached below the top-level call (exec/reached-addresses.ts), for the address index of
   * the block's batch; not part of the stored receipt.
   */
  readonly reached?: readonly Uint8Array[];
}

type LogTuple = [Uint8Array, Uint8Array[], Uint8Array];

const logTuples = (logs: readonly ReceiptLog[]): LogTuple[] => logs.map((l) => [l.address, [...l.topics], l.data]);

const statusOrRoot = (r: TxReceipt): Uint8Array =>
  r.stateRoot ?? (r.status === 1 ? Uint8Array.of(1) : new Uint8Array(0));

/**
 * The bytes committed to by receiptsRoot (EIP-2718: type byte prefix for typed transactions). This and the storage
 * form go through the one-buffer encoder (rlp-encode.ts): every receipt of every sealed block is encoded for both,
 * and the library's per-level arrays and copies were ~10% of the bytes allocated per ERC-20 transfer in a sealed
 * burst (bench/seal-burst.ts HEAP).
 */
export function encodeConsensusReceipt(r: TxReceipt): Uint8Array {
  const body = encodeRlp([statusOrRoot(r), unpaddedBytes(r.cumulativeGasUsed), r.logsBloom, logTuples(r.logs)]);
  return r.type === 0 ? body : concatBytes(Uint8Array.of(r.type), body);
}

export function logsBloomOf(logs: readonly ReceiptLog[], common?: Common): Uint8Array {
  const bloom = new Bloom(undefined, common);
  for (const log of logs) {
    bloom.add(log.address);
    for (const topic of log.topics) bloom.add(topic);
  }
  return bloom.bitvector;
}

export function combineBlooms(blooms: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(256);
  for (const b of blooms) for (let i = 0; i < 256; i++) out[i] |= b[i];
  return out;
}

export function receiptsRoot(receipts: readonly TxReceipt[], common?: Common): Uint8Array {
  return orderedTrieRoot(mapPacked(receipts, encodeConsensusReceipt), common?.customCrypto.keccak256 ?? keccak256);
}

export function transactionsRoot(txs: readonly TypedTransaction[], common?: Common): Uint8Array {
  return orderedTrieRoot(mapPacked(txs, txBytes), common?.customCrypto.keccak256 ?? keccak256);
}

/** Storage form: [type, statusOrRoot, cumulativeGas, logs, from, contractAddress | empty, gasUsed]. */
export function encodeStoredReceipts(receipts: readonly TxReceipt[]): Uint8Array {
  return encodeRlp(
    receipts.map((r) => [
      unpaddedNumberBytes(r.type),
      statusOrRoot(r),
      unpaddedBytes(r.cumulativeGasUsed),
      logTuples(r.logs),
      r.from,
      r.contractAddress ?? new Uint8Array(0),
      unpaddedBytes(r.gasUsed),
    ]),
  );
}

export function decodeStoredReceipts(bytes: Uint8Array, common?: Common): TxReceipt[] {
  const rows = RLP.decode(bytes) as unknown as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    LogTuple[],
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ][];
  return rows.map(([type, sor, cumulative, logs, from, created, gasUsed]) => {
    const decodedLogs = logs.map(([address, topics, data]) => ({ address, topics, data }));
    return {
      type: Number(bytesToBigInt(type)),
      ...(sor.length === 32 ? { stateRoot: sor } : { status: sor.length === 1 && sor[0] === 1 ? 1 : 0 }),
      cumulativeGasUsed: bytesToBigInt(cumulative),
      gasUsed: bytesToBigInt(gasUsed),
      logs: decodedLogs,
      logsBloom: logsBloomOf(decodedLogs, common),
      from,
      ...(created.length === 20 ? { contractAddress: created } : {}),
    } satisfies TxReceipt;
  });
}
