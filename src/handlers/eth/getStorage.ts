/** eth_getStorageAt (one slot, 32 bytes) and eth_getStorageRoot (the account's storage trie root). */
import type {
  EthGetStorageAtParams,
  EthGetStorageAtResult,
  EthGetStorageRootParams,
  EthGetStorageRootResult,
} from '../../generated/types.js';
import { engineOf, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes, slotFromHex } from '../hex.js';

export async function eth_getStorageAt(
  [address, position, block]: EthGetStorageAtParams,
  ctx: HandlerContext,
): Promise<EthGetStorageAtResult> {
  const state = await stateAt(engineOf(ctx), block);
  return hexFromBytes(await state.getStorageAt(bytesFromHex(address), slotFromHex(position)));
}

/** The empty-trie root for accounts without storage (and for accounts that do not exist). */
export async function eth_getStorageRoot(
  [address, block]: EthGetStorageRootParams,
  ctx: HandlerContext,
): Promise<EthGetStorageRootResult> {
  const state = await stateAt(engineOf(ctx), block);
  return hexFromBytes(await state.getStorageRoot(bytesFromHex(address)));
}
