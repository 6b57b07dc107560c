/**
 * JSON-RPC errors. Handlers and the engine adapters throw `RpcError`; the dispatcher turns it into the
 * error member of the response. Anything else thrown is a real fault and becomes -32603 (logged, no stack
 * to the client).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  ResourceNotFound: -32001,
  ResourceUnavailable: -32002,
  TransactionRejected: -32003,
  MethodNotSupported: -32004,
  LimitExceeded: -32005,
  VersionNotSupported: -32006,
  /** geth's convention for a reverted eth_call / eth_estimateGas; data carries the revert bytes. */
  ExecutionReverted: 3,
  /** Besu's code for a call without a valid credential (auth.ts); travels with HTTP 401. */
  Unauthorized: -40100,
} as const;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, data?: unknown) => new RpcError(ErrorCode.InvalidParams, message, data);
export const resourceNotFound = (message: string) => new RpcError(ErrorCode.ResourceNotFound, message);
export const methodNotSupported = (method: string, why?: string) =>
  new RpcError(
    ErrorCode.MethodNotSupported,
    why ? `Method not supported: ${method} (${why})` : `Method not supported: ${method}`,
  );

/** The JSON-RPC error an unauthenticated call gets (the message says what to send, never what was sent). */
export function unauthorizedError(reason: string): { code: number; message: string; data: { reason: string } } {
  return {
    code: ErrorCode.Unauthorized,
    message: `Unauthorized: ${reason}; send "Authorization: Bearer <HS256 JWT>" or "X-API-Key: <key>"`,
    data: { reason },
  };
}
