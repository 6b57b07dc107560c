/**
 * An assembly's execution header (assembly/execution-header.ts) is a copy of the previous assembly's with the parent
 * hash, number, timestamp and difficulty replaced: each must be the header the library builds from the same data
 * (own fields, encoding, hash) over the byte-length boundaries of those numbers, with and without the ECIP-1097
 * field; any other change, another Common or kind of header, and the DAO rule's blocks give the library's header; a
 * library whose headers a copy does not match gives its own.
 */
import { type BlockHeader, createBlockHeader, type HeaderData } from '@ethereumjs/block';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { type ExecutionData, ExecutionHeaders } from '../../../src/chain/assembly/execution-header.js';
import { Ecip1097Header } from '../../../src/chain/checkpointing/header.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { expectSameHeader } from '../../helpers/same-header.js';

const common = etcEngineRules(dev).commonAt(1n);
const plain = (data: HeaderData): BlockHeader => createBlockHeader(data, { common });
const withCheckpointField = (data: HeaderData): BlockHeader => new Ecip1097Header(data, { common }, undefined);

/** The i-th block's data: every changing field differs per block, crossing byte-length boundaries. */
function dataAt(i: number, from = 125n): ExecutionData {
  return {
    parentHash: new Uint8Array(32).fill(i + 1),
    uncleHash: KECCAK256_RLP_ARRAY,
    coinbase: new Uint8Array(20).fill(0xcb),
    difficulty: 2n ** BigInt(8 * (i % 5)) + BigInt(i),
    number: from + BigInt(i),
    gasLimit: 30_000_000n,
    timestamp: 2n ** 32n - 3n + BigInt(i),
    extraData: Uint8Array.of(1, 2, 3),
  };
}

describe('ExecutionHeaders', () => {
  for (const [name, build] of [
    ['library headers', plain],
    ['ECIP-1097 headers', withCheckpointField],
  ] as const) {
    it(`copies the previous execution header into the library's next one (${name})`, () => {
      const headers = new ExecutionHeaders();
      let previous: BlockHeader | undefined;
      for (let i = 0; i < 8; i++) {
        const made = headers.header(common, name, dataAt(i), build);
        expectSameHeader(made, build(dataAt(i)));
        // Copies from the third on (the first is the library's, the second compared with it).
        if (i > 1) expect(made.common).toBe(previous!.common);
        previous = made;
      }
    });
  }

  it("gives the library's header when anything else changed, or the Common or kind of header", () => {
    const headers = new ExecutionHeaders();
    headers.header(common, 'plain', dataAt(0), plain);
    const first = headers.header(common, 'plain', dataAt(1), plain);
    const changes: Array<[string, Partial<ExecutionData>]> = [
      ['coinbase', { coinbase: new Uint8Array(20).fill(0xcc) }],
      ['gas limit', { gasLimit: 29_999_999n }],
      ['extra data', { extraData: Uint8Array.of(1, 2) }],
      ['uncle hash', { uncleHash: new Uint8Array(32).fill(9) }],
    ];
    let i = 2;
    for (const [, change] of changes) {
      const data = { ...dataAt(i++), ...change };
      const made = headers.header(common, 'plain', data, plain);
      expectSameHeader(made, plain(data));
      expect(made.common).not.toBe(first.common);
      headers.header(common, 'plain', dataAt(i++), plain);
    }
    const other = etcEngineRules(dev).commonAt(1n).copy();
    const otherCommon = headers.header(other, 'plain', dataAt(i), plain);
    expect(otherCommon.common).not.toBe(first.common);
    const otherKind = headers.header(other, 'ecip1097', dataAt(i + 1), withCheckpointField);
    expect(otherKind).toBeInstanceOf(Ecip1097Header);
  });

  it("gives the library's header, and its error, in the DAO rule's ten blocks", () => {
    const mainnet = new Common({ chain: Mainnet, hardfork: Hardfork.Dao });
    const daoBlock = mainnet.hardforkBlock(Hardfork.Dao)!;
    const build = (data: HeaderData): BlockHeader => createBlockHeader(data, { common: mainnet });
    const headers = new ExecutionHeaders();
    for (let i = 0; i < 3; i++) headers.header(mainnet, 'plain', dataAt(i, daoBlock - 3n), build);
    expect(() => headers.header(mainnet, 'plain', dataAt(3, daoBlock - 3n), build)).toThrow(/dao-hard-fork/);
    const after = dataAt(0, daoBlock + 10n);
    headers.header(mainnet, 'plain', after, build);
    expectSameHeader(
      headers.header(mainnet, 'plain', dataAt(1, daoBlock + 10n), build),
      build(dataAt(1, daoBlock + 10n)),
    );
  });

  it("gives the library's headers once a copy disagreed with the library", () => {
    let made = 0;
    const grown = (data: HeaderData): BlockHeader => {
      const header = createBlockHeader(data, { common, freeze: false });
      Object.assign(header, { grown: made++ });
      Object.freeze(header);
      return header;
    };
    const headers = new ExecutionHeaders();
    for (let i = 0; i < 4; i++) {
      const header = headers.header(common, 'plain', dataAt(i), grown) as unknown as { grown: number };
      expect(header.grown).toBe(made - 1);
    }
  });
});
