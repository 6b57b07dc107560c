/**
 * An assembled block's sealed header (assembly/sealed-header.ts) is a copy of its execution header with the
 * execution's and the seal's fields in place: each must be the header the library builds from the same data (own
 * fields, encoding, hash), with and without the ECIP-1097 checkpoint field, over gas used of every byte length; seal
 * fields the library refuses get the library's error; a library whose headers a copy does not match gives its own.
 */
import { type BlockHeader, createBlockHeader, type HeaderData } from '@ethereumjs/block';
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { type SealFields, SealedHeaders } from '../../../src/chain/assembly/sealed-header.js';
import { Ecip1097Header } from '../../../src/chain/checkpointing/header.js';
import { etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev } from '../../../src/chain/networks/index.js';
import { expectSameHeader } from '../../helpers/same-header.js';

const common = etcEngineRules(dev).commonAt(1n);
const env = (i: number): HeaderData => ({
  parentHash: new Uint8Array(32).fill(i),
  uncleHash: KECCAK256_RLP_ARRAY,
  coinbase: new Uint8Array(20).fill(0xcb),
  difficulty: 131_072n + BigInt(i),
  number: BigInt(i + 1),
  gasLimit: 30_000_000n,
  timestamp: 1_700_000_000n + BigInt(i),
  extraData: Uint8Array.of(1, 2, 3),
});
const plain = (data: HeaderData): BlockHeader => createBlockHeader(data, { common });
const withCheckpointField = (data: HeaderData): BlockHeader => new Ecip1097Header(data, { common }, undefined);

function sealAt(i: number): SealFields {
  return {
    stateRoot: new Uint8Array(32).fill(255 - i),
    transactionsTrie: new Uint8Array(32).fill(i + 7),
    receiptTrie: new Uint8Array(32).fill(i + 9),
    logsBloom: new Uint8Array(256).fill(i % 3),
    gasUsed: i === 0 ? 0n : 2n ** BigInt(3 * i) + BigInt(i),
    mixHash: new Uint8Array(32).fill(i % 7),
    nonce: new Uint8Array(8).fill(i % 5),
  };
}

describe('SealedHeaders', () => {
  for (const [name, build] of [
    ['library headers', plain],
    ['ECIP-1097 headers', withCheckpointField],
  ] as const) {
    it(`copies the execution header into the library's sealed header (${name})`, () => {
      const headers = new SealedHeaders();
      for (let i = 0; i < 9; i++) {
        const envHeader = build(env(i));
        const made = headers.sealed(envHeader, env(i), sealAt(i), build);
        expectSameHeader(made, build({ ...env(i), ...sealAt(i) }));
        // A copy from the second on (the first is compared with the library's): not the constructor's object.
        if (i > 0) expect(made.common).toBe(envHeader.common);
        expect(envHeader.stateRoot).toEqual(new Uint8Array(32));
      }
    });
  }

  it("gives the library's error for seal fields the library refuses", () => {
    const headers = new SealedHeaders();
    headers.sealed(plain(env(1)), env(1), sealAt(1), plain);
    const refused: Array<[Partial<SealFields>, RegExp]> = [
      [{ stateRoot: new Uint8Array(31) }, /stateRoot must be 32 bytes/],
      [{ nonce: new Uint8Array(7) }, /nonce must be 8 bytes/],
      [{ mixHash: new Uint8Array(0) }, /mixHash must be 32 bytes/],
      [{ gasUsed: 30_000_001n }, /Invalid block: too much gas used/],
    ];
    for (const [change, error] of refused)
      expect(() => headers.sealed(plain(env(2)), env(2), { ...sealAt(2), ...change }, plain)).toThrow(error);
  });

  it("gives the library's headers once a copy disagreed with the library", () => {
    // A library whose sealed headers carry one more field than the execution header it made.
    let extra = false;
    const grown = (data: HeaderData): BlockHeader => {
      const header = createBlockHeader(data, { common, freeze: false });
      if (extra) Object.assign(header, { grown: 1 });
      Object.freeze(header);
      return header;
    };
    const headers = new SealedHeaders();
    for (let i = 0; i < 3; i++) {
      extra = false;
      const envHeader = grown(env(i));
      extra = true;
      const made = headers.sealed(envHeader, env(i), sealAt(i), grown);
      expect((made as unknown as { grown?: number }).grown).toBe(1);
    }
  });
});
