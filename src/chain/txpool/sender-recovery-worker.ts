/**
 * Worker-thread entry of the sender-recovery service (sender-recovery.ts): recovers the public key of
 * each record with the same native `ecrecover` the in-thread path uses, hashes it to the address, and
 * answers the whole batch with one transferred buffer.
 */
import { parentPort } from 'node:worker_threads';
import { ecrecover, keccak256 } from '../base/crypto.js';
import {
  RECOVERED,
  REQUEST_RECORD_BYTES,
  REQUEST_RECOVERY_ID_OFFSET,
  REQUEST_SIGNATURE_OFFSET,
  RESPONSE_ADDRESS_OFFSET,
  RESPONSE_PUBLIC_KEY_OFFSET,
  RESPONSE_RECORD_BYTES,
  UNRECOVERABLE,
  type RecoveryRequestMessage,
  type RecoveryResponseMessage,
  type RecoveryWorkerReady,
} from './sender-recovery-protocol.js';

function recoverBatch({ id, count, records }: RecoveryRequestMessage): RecoveryResponseMessage {
  const input = new Uint8Array(records);
  const output = new Uint8Array(count * RESPONSE_RECORD_BYTES);
  for (let i = 0; i < count; i++) {
    const at = i * REQUEST_RECORD_BYTES;
    const out = i * RESPONSE_RECORD_BYTES;
    const msgHash = input.subarray(at, at + 32);
    const r = input.subarray(at + REQUEST_SIGNATURE_OFFSET, at + REQUEST_SIGNATURE_OFFSET + 32);
    const s = input.subarray(at + REQUEST_SIGNATURE_OFFSET + 32, at + REQUEST_SIGNATURE_OFFSET + 64);
    try {
      // v = recovery id (0/1) makes ecrecover use it as is, so no chain id is needed here.
      const publicKey = ecrecover(msgHash, BigInt(input[at + REQUEST_RECOVERY_ID_OFFSET]), r, s);
      output[out] = RECOVERED;
      output.set(publicKey, out + RESPONSE_PUBLIC_KEY_OFFSET);
      output.set(keccak256(publicKey).subarray(12), out + RESPONSE_ADDRESS_OFFSET);
    } catch {
      output[out] = UNRECOVERABLE;
    }
  }
  return { id, records: output.buffer };
}

parentPort?.on('message', (request: RecoveryRequestMessage) => {
  const response = recoverBatch(request);
  parentPort?.postMessage(response, [response.records]);
});

const ready: RecoveryWorkerReady = { ready: true };
parentPort?.postMessage(ready);
