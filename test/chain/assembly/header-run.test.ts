/**
 * A bulk run's headers (assembly/header-run.ts) are copies of the run's first header with the changing fields
 * replaced, encoded from the first one's items: each must be the header the library builds from the same fields
 * (own fields, encoding, hash), across the byte-length boundaries of number, timestamp and difficulty, with and
 * without the ECIP-1097 checkpoint field; a run whose copies disagree with the library gives the library's headers.
 */
import { type BlockHeader, createBlockHeader, type HeaderData } from '@ethereumjs/block';
import { bytesToHex, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { HeaderRun, type RunFields } from '../../../src/chain/assembly/header-run.js';
import { Ecip1097Header } from '../../../src/chain/checkpointing/header.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { expectSameHeader } from '../../helpers/same-header.js';

const common = etcEngineRules(dev).commonAt(1n);
const base: HeaderData = {
  uncleHash: KECCAK256_RLP_ARRAY,
  coinbase: new Uint8Array(20).fill(0xcb),
  transactionsTrie: KECCAK256_RLP,
  receiptTrie: KECCAK256_RLP,
  logsBloom: new Uint8Array(256),
  gasLimit: 30_000_000n,
  gasUsed: 0n,
  extraData: Uint8Array.of(1, 2, 3),
};
const plain = (data: HeaderData): BlockHeader => createBlockHeader(data, { common });
const withCheckpointField = (data: HeaderData): BlockHeader => new Ecip1097Header(data, { common }, undefined);

/** Fields of the i-th header of a run starting at `number` and `timestamp`: every changing field differs per header. */
function fieldsAt(i: number, number: bigint, timestamp: bigint): RunFields {
  return {
    parentHash: new Uint8Array(32).fill(i + 1),
    stateRoot: new Uint8Array(32).fill(255 - i),
    difficulty: 2n ** BigInt(8 * (i % 4)) + BigInt(i),
    number: number + BigInt(i),
    timestamp: timestamp + BigInt(i) * 2n,
    mixHash: new Uint8Array(32).fill(i % 7),
    nonce: new Uint8Array(8).fill(i % 5),
  };
}

function expectLibraryEqual(run: HeaderRun, made: BlockHeader, build: (d: HeaderData) => BlockHeader, f: RunFields) {
  const library = build({ ...base, ...f });
  expectSameHeader(made, library);
  expect(bytesToHex(run.serialize(made))).toBe(bytesToHex(library.serialize()));
}

describe('HeaderRun', () => {
  const starts: Array<[string, bigint, bigint]> = [
    ['number 1 byte → 2 bytes, timestamp 1 → 2 bytes', 125n, 250n],
    ['number 2 → 3 bytes', 65_530n, 1_700_000_000n],
    ['number 0x7f → 0x80 (a single byte becomes a string)', 126n, 126n],
    ['timestamp 4 → 5 bytes', 1n, 2n ** 32n - 6n],
  ];
  for (const [name, number, timestamp] of starts) {
    for (const [form, build] of [
      ['plain header', plain],
      ['ECIP-1097 header', withCheckpointField],
    ] as const) {
      it(`${name}, ${form}: every header is the library's`, () => {
        const run = new HeaderRun(build, base);
        for (let i = 0; i < 12; i++) {
          const f = fieldsAt(i, number, timestamp);
          expectLibraryEqual(run, run.header(f), build, f);
        }
        // Copies, not the library's headers through the fallback.
        expect(run.copying).toBe(true);
      });
    }
  }

  it("gives the library's headers when its copies disagree with them", () => {
    let calls = 0;
    // A library whose headers carry a field the run's template lacks from the second one on.
    const drifting = (data: HeaderData): BlockHeader => {
      const header = createBlockHeader(data, { common, freeze: false });
      if (calls++ > 0) (header as unknown as { extra: number }).extra = calls;
      return Object.freeze(header) as BlockHeader;
    };
    const run = new HeaderRun(drifting, base);
    const made = Array.from({ length: 4 }, (_, i) => run.header(fieldsAt(i, 10n, 1000n)));
    expect(run.copying).toBe(false);
    for (const header of made.slice(1)) expect(Object.keys(header)).toContain('extra');
    for (const [i, header] of made.entries())
      expect(bytesToHex(run.serialize(header))).toBe(
        bytesToHex(plain({ ...base, ...fieldsAt(i, 10n, 1000n) }).serialize()),
      );
  });

  it("encodes an earlier copy as the library does, not with the latest copy's bytes", () => {
    const run = new HeaderRun(plain, base);
    const made = Array.from({ length: 6 }, (_, i) => run.header(fieldsAt(i, 300n, 70_000n)));
    expect(run.copying).toBe(true);
    // The latest first (the run's own encoding), then the earlier ones (the library's), then the latest again.
    for (const i of [5, 0, 1, 2, 3, 4, 5])
      expect(bytesToHex(run.serialize(made[i]))).toBe(
        bytesToHex(plain({ ...base, ...fieldsAt(i, 300n, 70_000n) }).serialize()),
      );
  });
});
