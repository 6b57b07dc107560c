/**
 * The MCP operations, once for both transports: the JSON-RPC methods (src/handlers/mcp) and the Streamable HTTP
 * server at /mcp (src/server/mcp-sdk.ts) call these and only convert errors. Results are the MCP shapes of
 * openrpc.json; refusals are McpInputError (unknown name, bad argument) or McpUnavailableError (no chain engine).
 */
import type {
  McpInitializeResult,
  McpPromptGetResult,
  McpPromptList,
  McpResourceList,
  McpResourceReadResult,
  McpTool,
  McpToolCallResult,
  McpToolList,
} from '../generated/types.js';
import type { SvcNode } from '../node/node.js';
import { McpInputError, McpUnavailableError } from './errors.js';
import { prompts } from './prompts.js';
import { RESOURCE_MIME_TYPE, resources } from './resources.js';
import { NO_ARGUMENTS, componentSchema } from './schemas.js';
import { tools } from './tools.js';

/** What the JSON-RPC `mcp_initialize` answers; /mcp negotiates the version with the SDK instead. */
export const PROTOCOL_VERSION = '2024-11-05';

export const SERVER_NAME = 'svc-node';

export const INSTRUCTIONS =
  'svc-node is an Ethereum Classic node. Its tools and resources are read-only and report live figures read at the ' +
  'time of the call: node status, identity, chain head, sync progress, peers and configuration. Block numbers are ' +
  'decimal and match eth_blockNumber; difficulties are decimal strings.';

export const CAPABILITIES = { tools: {}, resources: {}, prompts: {} } as const;

export function serverInfo(node: SvcNode): { name: string; version: string } {
  return { name: SERVER_NAME, version: node.version };
}

export function initializeResult(node: SvcNode): McpInitializeResult {
  return {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: { ...CAPABILITIES },
    serverInfo: serverInfo(node),
    instructions: INSTRUCTIONS,
  };
}

/** Built once: the list is static, only tool results are live. */
let toolList: McpToolList | undefined;

export function listTools(): McpToolList {
  toolList ??= {
    tools: tools.map(
      (t): McpTool => ({
        name: t.name,
        description: t.description,
        inputSchema: NO_ARGUMENTS as McpTool['inputSchema'],
        outputSchema: componentSchema(t.outputComponent) as McpTool['outputSchema'],
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      }),
    ),
  };
  return toolList;
}

/**
 * Arguments against a no-argument input schema: absent or `{}` pass; anything else names what is wrong, so an
 * agent that guessed a parameter learns that it does not exist rather than getting an answer that ignored it.
 */
function checkNoArguments(kind: 'tool' | 'prompt', name: string, args: unknown): void {
  if (args === undefined || args === null) return;
  const listMethod = kind === 'tool' ? 'tools/list' : 'prompts/list';
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new McpInputError(
      `Invalid arguments for ${kind} ${name}: arguments must be an object. Call ${listMethod} for its input schema.`,
    );
  }
  const keys = Object.keys(args);
  if (keys.length > 0) {
    throw new McpInputError(
      `Invalid arguments for ${kind} ${name}: unexpected argument '${keys[0]}'; this ${kind} takes no arguments. ` +
        `Call ${listMethod} for its input schema.`,
    );
  }
}

export function callTool(node: SvcNode, name: string, args: unknown): McpToolCallResult {
  const definition = tools.find((t) => t.name === name);
  if (definition === undefined)
    throw new McpInputError(`Unknown tool: ${name}. Call tools/list for the available tools.`);
  checkNoArguments('tool', name, args);
  let data: object;
  try {
    data = definition.read(node);
  } catch (err) {
    // MCP: a tool that ran but could not do its job is a result the model can read, not a protocol error.
    if (err instanceof McpUnavailableError)
      return { content: [{ type: 'text', text: `Error: ${err.message}` }], isError: true };
    throw err;
  }
  return {
    content: [{ type: 'text', text: definition.render(data) }],
    structuredContent: data as McpToolCallResult['structuredContent'],
  };
}

export function listResources(): McpResourceList {
  return {
    resources: resources.map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.description,
      mimeType: RESOURCE_MIME_TYPE,
    })),
  };
}

export function readResource(node: SvcNode, uri: string): McpResourceReadResult {
  const definition = resources.find((r) => r.uri === uri);
  if (definition === undefined)
    throw new McpInputError(`Unknown resource: ${uri}. Call resources/list for the available resources.`);
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: JSON.stringify(definition.read(node)) }] };
}

export function listPrompts(): McpPromptList {
  return { prompts: prompts.map((p) => ({ name: p.name, description: p.description })) };
}

export function getPrompt(name: string, args: unknown): McpPromptGetResult {
  const definition = prompts.find((p) => p.name === name);
  if (definition === undefined)
    throw new McpInputError(`Unknown prompt: ${name}. Call prompts/list for the available prompts.`);
  checkNoArguments('prompt', name, args);
  return {
    description: definition.description,
    messages: [{ role: 'user', content: { type: 'text', text: definition.text } }],
  };
}
