/**
 * How personal_* handlers reach the node's accounts, and how account failures become JSON-RPC errors.
 */
import { type AccountManager, AccountError, type AccountErrorKind } from '../../chain/index.js';
import { ErrorCode, RpcError } from '../../rpc/errors.js';
import type { HandlerContext } from '../../rpc/context.js';

/**
 * The node's AccountManager. The node wiring sets `node.accounts` (dev: with the prefunded keys
 * node-held); until SvcNode declares the field, it is read structurally.
 */
export function accountsOf(ctx: HandlerContext): AccountManager {
  const accounts = (ctx.node as { readonly accounts?: AccountManager }).accounts;
  if (accounts === undefined)
    throw new RpcError(ErrorCode.MethodNotSupported, 'Method not supported: this node holds no accounts');
  return accounts;
}

/** Caller mistakes are invalid params; the rest are the reference's -32000 texts. */
const INVALID_PARAMS: readonly AccountErrorKind[] = ['invalid-key', 'invalid-signature', 'invalid-duration'];

/** Runs an account operation, turning `AccountError`s into `RpcError`s (messages carry no secrets). */
export async function accountCall<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof AccountError) {
      throw new RpcError(
        INVALID_PARAMS.includes(error.kind) ? ErrorCode.InvalidParams : ErrorCode.ServerError,
        error.message,
      );
    }
    throw error;
  }
}
