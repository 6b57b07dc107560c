/**
 * A header's arrived bytes stand in for its encoding only when they hash to the header's own hash: bytes of another
 * encoding (another header, or the same fields encoded otherwise) are never stored for it. A header hashed by
 * `hashKeepingBytes` (the importer) has the library's hash and is encoded once for its hash, its record and its seal
 * check.
 */
import { type BlockHeader, createBlockHeader, createBlockHeaderFromRLP } from '@ethereumjs/block';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { keccak256 } from '../base/crypto.js';
import { Ecip1097Header } from '../checkpointing/header.js';
import { hashKeepingBytes, headerBytesOf, noteHeaderBytes } from './header-bytes.js';

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

describe('header hashed with its bytes kept', () => {
  afterEach(() => vi.restoreAllMocks());
  const fields = { number: 9n, gasLimit: 8000n, timestamp: 1234n, extraData: Uint8Array.of(9) };
  const cases: Record<string, () => BlockHeader> = {
    plain: () => createBlockHeader(fields),
    'ECIP-1097 (a 16th field in raw())': () => new Ecip1097Header(fields, {}, undefined),
  };
  for (const [name, make] of Object.entries(cases)) {
    it(`gives the library's hash and encoding, encoding the header once (${name})`, () => {
      const [libraryHash, libraryBytes] = [make().hash(), make().serialize()];
      const header = make();
      // A frozen header's own method cannot be spied on: its class's can (the subclass's raw() calls the base's).
      const encodings = vi.spyOn(Object.getPrototypeOf(header) as BlockHeader, 'raw');
      const hash = hashKeepingBytes(header);
      expect(header.hash()).toBe(hash);
      const bytes = headerBytesOf(header);
      expect(encodings).toHaveBeenCalledTimes(1);
      expect(hash).toEqual(libraryHash);
      expect(bytes).toEqual(libraryBytes);
    });
  }

  it('hashes an unfrozen header as the library does, keeping nothing', () => {
    const header = createBlockHeader(fields, { freeze: false });
    expect(hashKeepingBytes(header)).toEqual(createBlockHeader(fields).hash());
    const encodings = vi.spyOn(header, 'raw');
    expect(headerBytesOf(header)).toEqual(createBlockHeader(fields).serialize());
    expect(encodings).toHaveBeenCalledTimes(1);
  });
});
