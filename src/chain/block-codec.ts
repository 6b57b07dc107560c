/**
 * Decoding stored or received blocks with the fork rules of their height: the header and uncles with
 * the EVM Common, the transactions with the transaction Common (they differ in ETC's Die Hard window,
 * where EIP-155 signatures predate Spurious Dragon's EVM).
 */
import {
  Block,
  createBlockHeaderFromBytesArray,
  type BlockBytes,
  type BlockHeader,
  type BlockHeaderBytes,
} from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { createTxFromBlockBodyData } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';

export class BlockCodec {
  constructor(
    private readonly commonAt: (number: bigint) => Common,
    private readonly txCommonAt: (number: bigint) => Common,
  ) {}

  header(values: BlockHeaderBytes): BlockHeader {
    return createBlockHeaderFromBytesArray(values, { common: this.commonAt(bytesToBigInt(values[8])) });
  }

  block(values: BlockBytes): Block {
    const [headerValues, txValues, uncleValues] = values as unknown as [BlockHeaderBytes, (Uint8Array | Uint8Array[])[], BlockHeaderBytes[]];
    const header = this.header(headerValues);
    const txCommon = this.txCommonAt(header.number);
    const txs = txValues.map((tx) => createTxFromBlockBodyData(tx, { common: txCommon }));
    const uncles = uncleValues.map((u) => this.header(u));
    return new Block(header, txs, uncles, undefined, { common: header.common });
  }

  blockFromRLP(rlp: Uint8Array): Block {
    return this.block(RLP.decode(rlp) as unknown as BlockBytes);
  }
}
