import type {
  EthGetAccountInfoParams,
  EthGetAccountInfoResult,
  EthGetAccountParams,
  EthGetAccountResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, stateAt } from '../block-ref.js';
import { bytesFromHex, hexFromBytes, toQuantity } from '../hex.js';

/** The account's trie entry after `block`; a missing account reads as the empty one, as Anvil answers. */
export async function eth_getAccount(
  [address, block]: EthGetAccountParams,
  ctx: HandlerContext,
): Promise<EthGetAccountResult> {
  const state = await stateAt(engineOf(ctx), block);
  const at = bytesFromHex(address);
  const [nonce, balance, storageRoot, codeHash] = await Promise.all([
    state.getNonce(at),
    state.getBalance(at),
    state.getStorageRoot(at),
    state.getCodeHash(at),
  ]);
  return {
    nonce: toQuantity(nonce),
    balance: toQuantity(balance),
    storageRoot: hexFromBytes(storageRoot),
    codeHash: hexFromBytes(codeHash),
  };
}

/** Balance, nonce and code after `block` in one answer (Anvil's eth_getAccountInfo). */
export async function eth_getAccountInfo(
  [address, block]: EthGetAccountInfoParams,
  ctx: HandlerContext,
): Promise<EthGetAccountInfoResult> {
  const state = await stateAt(engineOf(ctx), block);
  const at = bytesFromHex(address);
  const [balance, nonce, code] = await Promise.all([state.getBalance(at), state.getNonce(at), state.getCode(at)]);
  return { balance: toQuantity(balance), nonce: toQuantity(nonce), code: hexFromBytes(code) };
}
