/** test_getLogHash / GeneralStateTests `logs`: keccak256(rlp([[address, [topics…], data]…])). */
import { RLP } from '@ethereumjs/rlp';
import { keccak256 } from '../base/crypto.js';
import type { ReceiptLog } from '../codec/receipts.js';

export function logsHash(logs: readonly ReceiptLog[]): Uint8Array {
  return keccak256(RLP.encode(logs.map((l) => [l.address, [...l.topics], l.data])));
}
