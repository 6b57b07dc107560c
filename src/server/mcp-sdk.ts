/**
 * The MCP server of the Streamable HTTP transport (/mcp), built with the official SDK's `Server` class over the
 * shared core in src/mcp: the SDK does the protocol (initialize and version negotiation, message validation),
 * the core answers, and this module only converts the core's refusals into errors with the codes the JSON-RPC
 * methods use (-32602 for a bad name or argument, -32002 for a missing chain engine).
 *
 * The low-level `Server` (not `McpServer`) because the tools are defined by JSON Schemas taken from
 * openrpc.json, not by zod schemas, and an unknown tool must be a protocol error, not a tool result.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode as McpErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListToolsResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  CAPABILITIES,
  INSTRUCTIONS,
  McpInputError,
  McpUnavailableError,
  callTool,
  getPrompt,
  listPrompts,
  listResources,
  listTools,
  readResource,
  serverInfo,
} from '../mcp/index.js';
import type { SvcNode } from '../node/node.js';
import { ErrorCode } from '../rpc/errors.js';
import type { Logger } from '../node/logger.js';

/**
 * An error the SDK puts on the wire as is: it sends `code` and `message` of whatever a handler throws. (The SDK's
 * own McpError prefixes "MCP error <code>:" to the message, which clients then prefix again.)
 */
class WireError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

let faultCounter = 0;

/**
 * Runs one core operation: its refusals become -32602 / -32002 with the core's message; anything else is a fault,
 * logged under a fresh id of which the client learns only the id (as the JSON-RPC dispatcher does).
 */
function mcpCall<T>(log: Logger, method: string, operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof McpInputError) throw new WireError(McpErrorCode.InvalidParams, error.message);
    if (error instanceof McpUnavailableError) throw new WireError(ErrorCode.ResourceUnavailable, error.message);
    const requestId = `mcp-${process.pid.toString(36)}-${(++faultCounter).toString(36)}`;
    log.error('internal error while handling an MCP request', { requestId, method, error });
    throw new WireError(ErrorCode.InternalError, `Internal error (request id ${requestId})`);
  }
}

/**
 * The SDK's server only validates with this for elicitation, which this server never asks for; left out, every
 * server (one per HTTP request) would build its own Ajv instance (a few tenths of a millisecond each, measured).
 */
const sharedValidator = new AjvJsonSchemaValidator();

/** A server for one connection of the transport (stateless: one per HTTP request). */
export function createMcpSdkServer(node: SvcNode, log: Logger): Server {
  const server = new Server(serverInfo(node), {
    capabilities: CAPABILITIES,
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  // The core's results are the openrpc.json shapes; the SDK's zod-derived types are structurally wider.
  server.setRequestHandler(ListToolsRequestSchema, () =>
    mcpCall(log, 'tools/list', () => listTools() as ListToolsResult),
  );
  server.setRequestHandler(CallToolRequestSchema, ({ params }) =>
    mcpCall(log, 'tools/call', () => callTool(node, params.name, params.arguments) as CallToolResult),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () =>
    mcpCall(log, 'resources/list', () => listResources() as ListResourcesResult),
  );
  server.setRequestHandler(ReadResourceRequestSchema, ({ params }) =>
    mcpCall(log, 'resources/read', () => readResource(node, params.uri) as ReadResourceResult),
  );
  server.setRequestHandler(ListPromptsRequestSchema, () =>
    mcpCall(log, 'prompts/list', () => listPrompts() as ListPromptsResult),
  );
  server.setRequestHandler(GetPromptRequestSchema, ({ params }) =>
    mcpCall(log, 'prompts/get', () => getPrompt(params.name, params.arguments) as GetPromptResult),
  );
  return server;
}
