/**
 * Otterscan sends block numbers, nonces and page anchors as JSON integers (Erigon and Anvil take those, hex and
 * tags alike): one place turns them into the node's own block references.
 */
import type { BlockNumberOrTagOrHash, OtsQuantity } from '../../generated/types.js';
import { toQuantity } from '../hex.js';

export function blockRefOf(number: number | BlockNumberOrTagOrHash): BlockNumberOrTagOrHash {
  return typeof number === 'number' ? toQuantity(number) : number;
}

export const quantityOf = (value: OtsQuantity): bigint => BigInt(value);
