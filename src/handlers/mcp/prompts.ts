import type {
  PromptsGetParams,
  PromptsGetResult,
  PromptsListParams,
  PromptsListResult,
} from '../../generated/types.js';
import { getPrompt, listPrompts } from '../../mcp/index.js';
import type { HandlerContext } from '../../rpc/context.js';
import { mcpCall } from './mcp-errors.js';

export function prompts_list(_params: PromptsListParams, _ctx: HandlerContext): PromptsListResult {
  return listPrompts();
}

export function prompts_get([request]: PromptsGetParams, _ctx: HandlerContext): PromptsGetResult {
  return mcpCall(() => getPrompt(request.name, request.arguments));
}
