/**
 * Decoding stored or received blocks with the fork rules of their height: the header and uncles with
 * the EVM Common, the transactions with the transaction Common (they differ in ETC's Die Hard window,
 * where EIP-155 signatures predate Spurious Dragon's EVM).
 *
 * On a chain with ECIP-1097 checkpointing a header may have a 16th field (the checkpoint list): such headers
 * decode to `Ecip1097Header` (src/chain/checkpointing/header.ts); whether the field belongs at that height is
 * for validation to judge. Without checkpointing the codec is exactly the standard 15-field one.
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
import { decodeEcip1097Header, STANDARD_HEADER_FIELDS } from '../checkpointing/header.js';

export class BlockCodec {
  constructor(
    private readonly commonAt: (number: bigint) => Common,
    private readonly txCommonAt: (number: bigint) => Common,
    /** The chain has ECIP-1097 checkpointing: 16-field headers are read as such. */
    private readonly checkpointing = false,
  ) {}

  header(values: BlockHeaderBytes): BlockHeader {
    const common = this.commonAt(bytesToBigInt(values[8]));
    if (this.checkpointing && values.length === STANDARD_HEADER_FIELDS + 1)
      return decodeEcip1097Header(values, { common });
    return createBlockHeaderFromBytesArray(values, { common });
  }

  block(values: BlockBytes): Block {
    const [headerValues, txValues, uncleValues] = values as unknown as [
      BlockHeaderBytes,
      (Uint8Array | Uint8Array[])[],
      BlockHeaderBytes[],
    ];
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
