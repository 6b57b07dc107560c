import type { ToolsCallParams, ToolsCallResult, ToolsListParams, ToolsListResult } from '../../generated/types.js';
import { callTool, listTools } from '../../mcp/index.js';
import type { HandlerContext } from '../../rpc/context.js';
import { mcpCall } from './mcp-errors.js';

/** `cursor` is accepted and ignored: the list is never paged. */
export function tools_list(_params: ToolsListParams, _ctx: HandlerContext): ToolsListResult {
  return listTools();
}

export function tools_call([request]: ToolsCallParams, ctx: HandlerContext): ToolsCallResult {
  return mcpCall(() => callTool(ctx.node, request.name, request.arguments));
}
