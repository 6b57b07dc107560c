/**
 * Revert data → the de-facto standard JSON-RPC error (geth's): code 3, `execution reverted[: reason]`,
 * `data` = the raw revert bytes as hex, which ethers and viem decode themselves (custom errors included).
 */
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import { hexFromBytes } from '../hex.js';

const ERROR_STRING_SELECTOR = '08c379a0'; // Error(string)
const PANIC_SELECTOR = '4e487b71'; // Panic(uint256)

/** Solidity's panic codes (docs: "Panic via assert and Error via require"). */
const PANIC_REASONS: Readonly<Record<number, string>> = {
  0x00: 'generic panic',
  0x01: 'assert(false)',
  0x11: 'arithmetic overflow',
  0x12: 'division or modulo by zero',
  0x21: 'enum overflow',
  0x22: 'invalid encoded storage byte array accessed',
  0x31: 'out-of-bounds array access; popping on an empty array',
  0x32: 'out-of-bounds access of an array or bytesN',
  0x41: 'out of memory',
  0x51: 'uninitialized function',
};

/** The human reason inside revert bytes: the Error(string) message or a described Panic code; undefined otherwise. */
export function decodeRevertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const selector = bytes.subarray(0, 4).toString('hex');
  const body = bytes.subarray(4);
  if (selector === ERROR_STRING_SELECTOR) return decodeAbiString(body);
  if (selector === PANIC_SELECTOR && body.length === 32) {
    const code = BigInt(`0x${body.toString('hex')}`);
    const known = code <= 0xffn ? PANIC_REASONS[Number(code)] : undefined;
    return `panic 0x${code.toString(16).padStart(2, '0')}${known === undefined ? '' : ` (${known})`}`;
  }
  return undefined;
}

/** A single ABI-encoded `string` argument (offset word, length word, UTF-8 bytes); undefined if malformed. */
function decodeAbiString(body: Buffer): string | undefined {
  if (body.length < 64) return undefined;
  const offset = readWord(body, 0);
  if (offset === undefined || offset + 32 > body.length) return undefined;
  const length = readWord(body, offset);
  if (length === undefined || offset + 32 + length > body.length) return undefined;
  return body.subarray(offset + 32, offset + 32 + length).toString('utf8');
}

/** A 32-byte big-endian word as a safe integer, or undefined when it could not be an in-bounds position. */
function readWord(buffer: Buffer, at: number): number | undefined {
  const word = BigInt(`0x${buffer.subarray(at, at + 32).toString('hex')}`);
  return word <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(word) : undefined;
}

export function executionReverted(returnData: Uint8Array): RpcError {
  const reason = decodeRevertReason(returnData);
  return new RpcError(
    ErrorCode.ExecutionReverted,
    reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`,
    hexFromBytes(returnData),
  );
}
