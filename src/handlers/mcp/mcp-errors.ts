/**
 * How the MCP core's refusals become JSON-RPC errors: a bad name or argument is -32602 with the core's message
 * (it names the tool, resource, prompt or argument), a missing chain engine -32002, as elsewhere in the API.
 */
import { McpInputError, McpUnavailableError } from '../../mcp/index.js';
import { ErrorCode, RpcError, invalidParams } from '../../rpc/errors.js';

export function mcpCall<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof McpInputError) throw invalidParams(error.message);
    if (error instanceof McpUnavailableError) throw new RpcError(ErrorCode.ResourceUnavailable, error.message);
    throw error;
  }
}
