/**
 * The agent protocol (MCP) core: tools, resources and prompts over the node's live data. Knows nothing of
 * JSON-RPC or HTTP; the JSON-RPC handlers (src/handlers/mcp) and the /mcp server (src/server/mcp-sdk.ts) both
 * serve it and only convert its errors.
 */
export { McpInputError, McpUnavailableError } from './errors.js';
export {
  CAPABILITIES,
  INSTRUCTIONS,
  PROTOCOL_VERSION,
  SERVER_NAME,
  callTool,
  getPrompt,
  initializeResult,
  listPrompts,
  listResources,
  listTools,
  readResource,
  serverInfo,
} from './protocol.js';
