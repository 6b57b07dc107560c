/** Shared pieces of the eth/68 and snap/1 codec tests: byte builders and the "decoder refuses this" check. */
import { RLP, type Input } from '@ethereumjs/rlp';
import { hexToBytes } from '@ethereumjs/util';
import { expect } from 'vitest';
import { WireDecodeError } from '../../src/p2p/eth/messages.js';

export const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
export const bytes = (h: string) => hexToBytes(`0x${h}`);
export const enc = (v: unknown) => RLP.encode(v as Input);
export const h32 = (suffix: string) => bytes(suffix.padStart(64, '0'));

/** Asserts the decoder throws a WireDecodeError whose message matches every pattern. */
export function expectReject(decode: (p: Uint8Array) => unknown, payload: Uint8Array, ...patterns: RegExp[]): void {
  let caught: unknown;
  try {
    decode(payload);
  } catch (err) {
    caught = err;
  }
  expect(caught, `accepted ${hex(payload)}`).toBeInstanceOf(WireDecodeError);
  for (const p of patterns) expect((caught as Error).message).toMatch(p);
}
