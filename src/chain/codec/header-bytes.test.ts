/**
 * A header's arrived bytes stand in for its encoding only when they hash to the header's own hash: bytes of another
 * encoding (another header, or the same fields encoded otherwise) are never stored for it.
 */
import { createBlockHeader, createBlockHeaderFromRLP } from '@ethereumjs/block';
import { describe, expect, it } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { headerBytesOf, noteHeaderBytes } from './header-bytes.js';

describe('header bytes as they arrived', () => {
  it('keeps bytes that hash to the header, and encodes headers whose bytes are not theirs', () => {
    const bytes = createBlockHeader({ number: 7n, gasLimit: 5000n, extraData: Uint8Array.of(1, 2) }).serialize();
    const header = createBlockHeaderFromRLP(bytes);
    noteHeaderBytes(header, bytes, keccak256(bytes));
    expect(headerBytesOf(header)).toBe(bytes);

    const other = createBlockHeader({ number: 8n, gasLimit: 5000n }).serialize();
    const fresh = createBlockHeaderFromRLP(bytes);
    noteHeaderBytes(fresh, other, keccak256(other));
    expect(headerBytesOf(fresh)).not.toBe(other);
    expect(headerBytesOf(fresh)).toEqual(bytes);
  });
});
