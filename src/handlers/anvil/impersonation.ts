import { type AccountSigner, devControlsOf, type Impersonation } from '../../chain/index.js';
import type {
  AnvilAutoImpersonateAccountParams,
  AnvilAutoImpersonateAccountResult,
  AnvilImpersonateAccountParams,
  AnvilImpersonateAccountResult,
  AnvilStopImpersonatingAccountParams,
  AnvilStopImpersonatingAccountResult,
} from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { engineOf } from '../block-ref.js';
import { bytesFromHex } from '../hex.js';
import { controlsOf } from './controls.js';

export function anvil_impersonateAccount(
  [address]: AnvilImpersonateAccountParams,
  ctx: HandlerContext,
): AnvilImpersonateAccountResult {
  controlsOf(ctx, 'anvil_impersonateAccount').impersonation.start(bytesFromHex(address));
  return null;
}

export function anvil_stopImpersonatingAccount(
  [address]: AnvilStopImpersonatingAccountParams,
  ctx: HandlerContext,
): AnvilStopImpersonatingAccountResult {
  controlsOf(ctx, 'anvil_stopImpersonatingAccount').impersonation.stop(bytesFromHex(address));
  return null;
}

export function anvil_autoImpersonateAccount(
  [enabled]: AnvilAutoImpersonateAccountParams,
  ctx: HandlerContext,
): AnvilAutoImpersonateAccountResult {
  controlsOf(ctx, 'anvil_autoImpersonateAccount').impersonation.auto = enabled;
  return null;
}

/**
 * eth_sendTransaction's signer for `from` when the dev chain impersonates it: named with anvil_impersonateAccount,
 * or any address once auto impersonation is on and `hasKey` says the node holds no key for it. Undefined otherwise.
 */
export function impersonatingSigner(
  ctx: HandlerContext,
  from: Uint8Array,
  hasKey: () => boolean,
): AccountSigner | undefined {
  const engine = engineOf(ctx);
  if (engine.definition.name !== 'dev' || !ctx.node.enabledNamespaces.has('anvil')) return undefined;
  const { impersonation } = devControlsOf(engine);
  if (!impersonation.isImpersonated(from) && !(impersonation.auto && !hasKey())) return undefined;
  return placeholderSigner(impersonation, from);
}

/** Signs as `from` with the placeholder signature whoever asks: impersonation, eth_sendUnsignedTransaction. */
export function placeholderSigner(impersonation: Impersonation, from: Uint8Array): AccountSigner {
  return {
    address: from,
    signMessage: () => {
      throw new Error('an impersonated account cannot sign messages');
    },
    signTypedData: () => {
      throw new Error('an impersonated account cannot sign typed data');
    },
    signTransaction: (fields, common) => impersonation.transaction(from, fields, common),
  };
}
