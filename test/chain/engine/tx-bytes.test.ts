/** The stored block body is spliced from each transaction's cached bytes; it must equal the library's RLP. */
import { createBlock, createBlockHeader } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { createAccessList2930Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { encodeTransactionList, rlpList, serializedBlockLength, txBytes } from '../../../src/chain/codec/tx-bytes.js';
import { evmRulesAt, txRulesAt } from '../../../src/chain/rules/index.js';
import { dev } from '../../../src/chain/networks/index.js';
import { keys } from './fixtures.js';

const common = txRulesAt(dev, 1n);

function mixed(count: number): TypedTransaction[] {
  return Array.from({ length: count }, (_, i) => {
    const fields = {
      nonce: BigInt(i),
      to: new Address(new Uint8Array(20).fill(i + 1)),
      value: BigInt(i) * 10n ** 15n,
      gasLimit: 21_000n,
      gasPrice: 10n ** 9n,
    };
    return i % 2 === 0
      ? createLegacyTx(fields, { common }).sign(keys[0])
      : createAccessList2930Tx({ ...fields, accessList: [] }, { common }).sign(keys[1]);
  });
}

describe('transaction bytes', () => {
  it.each([0, 1, 2, 40])('splice %i legacy and EIP-2930 transactions into the RLP the library encodes', (count) => {
    const txs = mixed(count);
    const library = RLP.encode(
      txs.map((tx) => (tx.type === 0 ? tx.raw() : tx.serialize())) as Parameters<typeof RLP.encode>[0],
    );
    expect(encodeTransactionList(txs)).toEqual(library);
    expect(rlpList([encodeTransactionList(txs), RLP.encode([])])).toEqual(
      RLP.encode([RLP.decode(library), []] as never),
    );
  });

  it('are encoded once per frozen transaction', () => {
    const [tx] = mixed(1);
    expect(txBytes(tx)).toBe(txBytes(tx));
    expect(txBytes(tx)).toEqual(tx.serialize());
  });

  it.each([
    [0, 0, 0],
    [1, 0, 32],
    [2, 1, 0],
    [40, 2, 32],
    [400, 0, 0],
  ])(
    'give the block size (%i transactions, %i uncles, %i bytes of extraData) without encoding the block',
    (count, uncleCount, extra) => {
      const blockCommon = evmRulesAt(dev, 1n);
      const header = (n: bigint) => ({
        number: n,
        gasLimit: 8_000_000n * 1000n,
        difficulty: 131_072n,
        extraData: new Uint8Array(extra).fill(7),
      });
      const uncleHeaders = Array.from({ length: uncleCount }, (_, i) =>
        createBlockHeader({ ...header(1n), timestamp: BigInt(i) }, { common: blockCommon }),
      );
      const block = createBlock(
        { header: header(2n), transactions: mixed(count), uncleHeaders },
        { common: blockCommon },
      );
      expect(serializedBlockLength(block)).toBe(block.serialize().length);
    },
  );
});
