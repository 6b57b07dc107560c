/** geth's JSON encodings of trace values (hexutil): quantities minimal 0x-hex, bytes 0x-hex, lowercase. */
import { bytesToHex } from '@ethereumjs/util';

export const quantity = (v: bigint | number): string => `0x${v.toString(16)}`;
export const hexBytes = (b: Uint8Array): string => bytesToHex(b);
/** 32 bytes as 0x + 64 hex digits (common.Hash). */
export const hash32 = (word: bigint): string => `0x${word.toString(16).padStart(64, '0')}`;
export const bytesToWord = (b: Uint8Array): bigint => (b.length === 0 ? 0n : BigInt(bytesToHex(b)));

/**
 * The reason string of a revert carrying Solidity's `Error(string)` (selector 0x08c379a0), as geth's
 * abi.UnpackRevert reads it; undefined for other data.
 */
export function revertReason(output: Uint8Array): string | undefined {
  if (output.length < 4 + 64) return undefined;
  if (output[0] !== 0x08 || output[1] !== 0xc3 || output[2] !== 0x79 || output[3] !== 0xa0) return undefined;
  const body = output.subarray(4);
  const offset = bytesToWord(body.subarray(0, 32));
  if (offset + 32n > BigInt(body.length)) return undefined;
  const start = Number(offset);
  const length = bytesToWord(body.subarray(start, start + 32));
  if (BigInt(start) + 32n + length > BigInt(body.length)) return undefined;
  return new TextDecoder().decode(body.subarray(start + 32, start + 32 + Number(length)));
}

/**
 * An answer already written as JSON (the struct logger's, struct-log-text.ts), as UTF-8 pieces: the RPC layer sends
 * them as they are. The pieces may be a view of a buffer the next answer reuses: whoever sends them calls `release`
 * once they are written (or copied), and reads them no more; one never released is only garbage. Anything else that
 * serialises it gets the same JSON through `toJSON`.
 */
export class JsonText {
  constructor(
    readonly pieces: readonly Uint8Array[],
    readonly release: () => void = () => {},
  ) {}

  get text(): string {
    return Buffer.concat(this.pieces).toString('utf8');
  }

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}
