/**
 * The wire format between the pool and its sender-recovery worker: one message per batch, each a single
 * transferable buffer of fixed-size records, so a batch costs one structured clone of a tiny object.
 *
 * Request record:  message hash (32 B) ‖ r (32 B) ‖ s (32 B) ‖ recovery id 0/1 (1 B)
 * Response record: status (1 B, RECOVERED or UNRECOVERABLE) ‖ public key without 0x04 (64 B) ‖ address (20 B)
 */

export const REQUEST_RECORD_BYTES = 32 + 64 + 1;
export const REQUEST_SIGNATURE_OFFSET = 32;
export const REQUEST_RECOVERY_ID_OFFSET = 96;

export const RESPONSE_RECORD_BYTES = 1 + 64 + 20;
export const RESPONSE_PUBLIC_KEY_OFFSET = 1;
export const RESPONSE_ADDRESS_OFFSET = 65;

export const RECOVERED = 1;
export const UNRECOVERABLE = 2;

export interface RecoveryRequestMessage {
  readonly id: number;
  readonly count: number;
  readonly records: ArrayBuffer;
}

export interface RecoveryResponseMessage {
  readonly id: number;
  readonly records: ArrayBuffer;
}

/** Posted once by the worker when its module has loaded and it answers requests. */
export interface RecoveryWorkerReady {
  readonly ready: true;
}

export type RecoveryWorkerMessage = RecoveryResponseMessage | RecoveryWorkerReady;
