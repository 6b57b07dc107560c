import type { McpInitializeParams, McpInitializeResult } from '../../generated/types.js';
import { initializeResult } from '../../mcp/index.js';
import type { HandlerContext } from '../../rpc/context.js';

/** The request's content is informative only: this endpoint speaks one protocol version (2024-11-05). */
export function mcp_initialize(_params: McpInitializeParams, ctx: HandlerContext): McpInitializeResult {
  return initializeResult(ctx.node);
}
