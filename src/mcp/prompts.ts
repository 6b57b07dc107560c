/**
 * The three MCP prompt templates, in list order (product-behaviour §6.3, with the node's own name). Each is one
 * user message asking the model to examine the node; it names the tools to use, since a prompt is only as good
 * as the model's knowledge of what it can call.
 */
export interface PromptDefinition {
  readonly name: string;
  readonly description: string;
  readonly text: string;
}

export const prompts: readonly PromptDefinition[] = [
  {
    name: 'mcp_node_health_check',
    description: 'Perform a comprehensive health check of the node',
    text:
      'Please check the health of my svc-node Ethereum Classic node. Use the available tools (mcp_node_status, ' +
      'mcp_blockchain_info, mcp_sync_status, mcp_peer_list) to verify:\n1. Node status and responsiveness\n' +
      '2. Blockchain sync progress\n3. Peer connectivity\n4. Recent block production\n5. Any concerning metrics or errors\n\n' +
      'Provide a comprehensive health assessment.',
  },
  {
    name: 'mcp_sync_troubleshooting',
    description: 'Troubleshoot blockchain synchronisation issues',
    text:
      'My svc-node node seems to be having sync issues. Use the available tools (mcp_sync_status, mcp_peer_list, ' +
      'mcp_blockchain_info) to diagnose:\n1. Current sync status and progress\n2. Peer connectivity quality\n' +
      '3. Comparison with network best block\n4. Identify if sync is stalled or slow\n5. Check for error patterns\n' +
      '6. Recommend specific actions\n\nAnalyze the node state and provide recommendations.',
  },
  {
    name: 'mcp_peer_management',
    description: 'Manage and optimise peer connections',
    text:
      'Help me manage peer connections for my svc-node node. Use the available tools (mcp_peer_list, mcp_node_status) ' +
      'to:\n1. List currently connected peers\n2. Analyze peer quality and diversity\n3. Identify problematic peers\n' +
      '4. Check peer diversity\n5. Recommend optimal peer count\n6. Suggest strategies to improve connectivity\n\n' +
      'Provide detailed peer analysis and recommendations.',
  },
];
