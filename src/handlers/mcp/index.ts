import type { McpHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';
import { prompts_get, prompts_list } from './prompts.js';
import { resources_list, resources_read } from './resources.js';
import { tools_call, tools_list } from './tools.js';

/**
 * The agent protocol as JSON-RPC methods (MCP params wrapped in a one-element array). The tools, resources and
 * prompts themselves live in src/mcp, shared with the Streamable HTTP transport at /mcp; these only unwrap the
 * params and convert errors.
 */
export const mcpHandlers: McpHandlers<HandlerContext> = {
  ...methodHandlers.mcp,
  'tools/list': tools_list,
  'tools/call': tools_call,
  'resources/list': resources_list,
  'resources/read': resources_read,
  'prompts/list': prompts_list,
  'prompts/get': prompts_get,
};
