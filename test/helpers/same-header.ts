/**
 * The check every header-copying path (assembly/header-run.ts, execution-header.ts, sealed-header.ts) is held to:
 * a copy must be indistinguishable from the header @ethereumjs/block's constructor makes from the same fields.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex } from '@ethereumjs/util';
import { expect } from 'vitest';

export function expectSameHeader(made: BlockHeader, library: BlockHeader): void {
  expect(Object.getPrototypeOf(made)).toBe(Object.getPrototypeOf(library));
  expect(Object.keys(made).sort()).toEqual(Object.keys(library).sort());
  expect(Object.isFrozen(made)).toBe(true);
  expect(bytesToHex(made.serialize())).toBe(bytesToHex(library.serialize()));
  expect(bytesToHex(made.hash())).toBe(bytesToHex(library.hash()));
  // The fields read as numbers, not only their encodings.
  expect([made.number, made.timestamp, made.difficulty, made.gasUsed, made.gasLimit]).toEqual([
    library.number,
    library.timestamp,
    library.difficulty,
    library.gasUsed,
    library.gasLimit,
  ]);
}
