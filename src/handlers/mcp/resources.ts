import type {
  ResourcesListParams,
  ResourcesListResult,
  ResourcesReadParams,
  ResourcesReadResult,
} from '../../generated/types.js';
import { listResources, readResource } from '../../mcp/index.js';
import type { HandlerContext } from '../../rpc/context.js';
import { mcpCall } from './mcp-errors.js';

export function resources_list(_params: ResourcesListParams, _ctx: HandlerContext): ResourcesListResult {
  return listResources();
}

export function resources_read([request]: ResourcesReadParams, ctx: HandlerContext): ResourcesReadResult {
  return mcpCall(() => readResource(ctx.node, request.uri));
}
