/**
 * flatCallTracer's frames placed in the chain, as geth fills them from the traced transaction's receipt: block hash
 * and number, transaction hash and position. The engine leaves them null and 0 (what debug_traceCall answers).
 */
import type { GethTraceResult } from '../../generated/types.js';
import { hexFromBytes } from '../hex.js';

export interface TracedPlace {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly txHash: Uint8Array;
  readonly index: number;
}

export function placeFlatFrames(result: GethTraceResult, place: TracedPlace): GethTraceResult {
  if (!Array.isArray(result)) return result;
  const blockHash = hexFromBytes(place.blockHash);
  const transactionHash = hexFromBytes(place.txHash);
  const blockNumber = Number(place.blockNumber);
  return result.map((frame) => ({
    ...frame,
    blockHash,
    blockNumber,
    transactionHash,
    transactionPosition: place.index,
  }));
}
