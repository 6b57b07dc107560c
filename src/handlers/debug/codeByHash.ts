import type { DebugCodeByHashParams, DebugCodeByHashResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf, stateAt } from '../block-ref.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/** The code whose hash is `hash` from the node's state store; 0x when it holds none, as Anvil 1.7.1 answers. */
export async function debug_codeByHash(
  [hash, block]: DebugCodeByHashParams,
  ctx: HandlerContext,
): Promise<DebugCodeByHashResult> {
  const state = await stateAt(engineOf(ctx), block);
  const code = await state.getCodeByHash(bytesFromHex(hash));
  return hexFromBytes(code ?? new Uint8Array(0));
}
