import { logsHash } from '../../chain/index.js';
import type { TestGetLogHashParams, TestGetLogHashResult } from '../../generated/types.js';
import { engineOf } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/** keccak256 of the RLP list of the transaction's logs; an unknown transaction hashes like an empty list. */
export async function test_getLogHash(
  [transactionHash]: TestGetLogHashParams,
  ctx: HandlerContext,
): Promise<TestGetLogHashResult> {
  const found = await engineOf(ctx).chain.getTransaction(bytesFromHex(transactionHash));
  return hexFromBytes(logsHash(found?.receipt.logs ?? []));
}
