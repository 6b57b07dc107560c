/**
 * The two ways the MCP core refuses a request. Each transport maps them to its own error form: the JSON-RPC
 * handlers to -32602 / -32002 (src/handlers/mcp), the /mcp server to MCP errors with the same codes.
 */

/** The caller asked for something that does not exist or passed an argument it cannot take; the message names it. */
export class McpInputError extends Error {
  override name = 'McpInputError';
}

/** What the request reads is not running (no chain engine attached); the message says what. */
export class McpUnavailableError extends Error {
  override name = 'McpUnavailableError';
}
