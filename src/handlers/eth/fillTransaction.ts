/**
 * eth_fillTransaction (geth's and Anvil's): the request filled as eth_sendTransaction fills it, returned unsigned.
 * raw is the legacy EIP-155 transaction with v = chainId * 2 + 35 and r = s = 0, as Anvil encodes an unsigned one, and
 * hash the keccak-256 of those bytes; nothing is signed, so from needs no key here.
 */
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { keccak256 } from '../../chain/index.js';
import type { EthFillTransactionParams, EthFillTransactionResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { hexFromBytes, toQuantity } from '../hex.js';
import { deadlineOf } from './call-request.js';
import { fillTransaction } from './transaction-request.js';

export async function eth_fillTransaction(
  [request]: EthFillTransactionParams,
  ctx: HandlerContext,
): Promise<EthFillTransactionResult> {
  const engine = engineOf(ctx);
  const fields = await fillTransaction(engine, request, { method: 'eth_fillTransaction', ...deadlineOf(ctx) });
  const data = fields.data ?? new Uint8Array(0);
  const empty = new Uint8Array(0);
  const v = engine.definition.chainId * 2n + 35n;
  const raw = RLP.encode([
    bigIntToUnpaddedBytes(fields.nonce),
    bigIntToUnpaddedBytes(fields.gasPrice),
    bigIntToUnpaddedBytes(fields.gasLimit),
    fields.to ?? empty,
    bigIntToUnpaddedBytes(fields.value ?? 0n),
    data,
    bigIntToUnpaddedBytes(v),
    empty,
    empty,
  ]);
  return {
    raw: hexFromBytes(raw),
    tx: {
      type: '0x0',
      chainId: toQuantity(engine.definition.chainId),
      nonce: toQuantity(fields.nonce),
      gasPrice: toQuantity(fields.gasPrice),
      gas: toQuantity(fields.gasLimit),
      to: fields.to === undefined ? null : hexFromBytes(fields.to),
      value: toQuantity(fields.value ?? 0n),
      input: hexFromBytes(data),
      r: '0x0',
      s: '0x0',
      v: toQuantity(v),
      hash: hexFromBytes(keccak256(raw)),
      blockHash: null,
      blockNumber: null,
      transactionIndex: null,
      from: request.from.toLowerCase(),
    },
  };
}
