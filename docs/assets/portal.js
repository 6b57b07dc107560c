// svc-node docs portal: method search and the "Try it" form. Plain browser JavaScript, no dependencies.
// The generator appends `startPortal(<search index>)` to this file.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic script for the browser, not a module
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: called by the line the generator appends
function startPortal(searchIndex) {
  // Path from this page back to the portal's top directory (set by the generator on <body>).
  const root = document.body.dataset.root || './';

  setUpSearch(searchIndex, root);
  for (const form of document.querySelectorAll('form.try-it-form')) setUpTryIt(form, root);
}

const MAX_RESULTS = 30;

function setUpSearch(searchIndex, root) {
  const input = document.getElementById('portal-search-input');
  const list = document.getElementById('portal-search-results');
  const status = document.getElementById('portal-search-status');
  if (!input || !list || !status) return;

  const entries = searchIndex.map((entry) => ({
    entry,
    name: entry.name.toLowerCase(),
    text: (entry.name + ' ' + entry.summary).toLowerCase(),
  }));

  function rank(item, query) {
    if (item.name === query) return 0;
    if (item.name.startsWith(query)) return 1;
    if (item.name.includes(query)) return 2;
    return 3;
  }

  function update() {
    const query = input.value.trim().toLowerCase();
    list.replaceChildren();
    if (!query) {
      list.hidden = true;
      status.textContent = '';
      return;
    }
    const terms = query.split(/\s+/);
    const matches = entries
      .filter((item) => terms.every((term) => item.text.includes(term)))
      .map((item) => ({ item, rank: rank(item, query) }))
      .sort((a, b) => a.rank - b.rank || (a.item.name < b.item.name ? -1 : 1));

    for (const { item } of matches.slice(0, MAX_RESULTS)) list.append(resultItem(item.entry, root));
    list.hidden = matches.length === 0;
    status.textContent =
      matches.length === 0
        ? 'No method matches.'
        : matches.length > MAX_RESULTS
          ? `${matches.length} methods match; showing the first ${MAX_RESULTS}.`
          : `${matches.length} ${matches.length === 1 ? 'method matches' : 'methods match'}.`;
  }

  input.addEventListener('input', update);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      input.value = '';
      update();
    } else if (event.key === 'Enter') {
      const first = list.querySelector('a');
      if (first) first.click();
    }
  });
  // "/" jumps to the search box from anywhere but a text field.
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement;
    if (event.key === '/' && !typing) {
      event.preventDefault();
      input.focus();
    }
  });
  update();
}

function resultItem(entry, root) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = root + entry.path;
  const name = document.createElement('code');
  name.textContent = entry.name;
  link.append(name);
  if (entry.unavailable) {
    const badge = document.createElement('span');
    badge.className = 'badge unavailable';
    badge.textContent = 'not yet available';
    link.append(' ', badge);
  }
  const summary = document.createElement('span');
  summary.className = 'result-summary';
  summary.textContent = entry.summary;
  link.append(summary);
  li.append(link);
  return li;
}

function setUpTryIt(form, root) {
  // The node serves the portal under /docs/, and answers JSON-RPC at the URL one level above it.
  const endpoint = new URL(root + '../', window.location.href);
  const textarea = form.querySelector('textarea');
  const button = form.querySelector('button');
  const section = form.closest('section');
  const answer = section.querySelector('.try-it-answer');
  const output = section.querySelector('.try-it-output');
  const endpointLabel = form.querySelector('.try-it-endpoint');
  if (endpointLabel) endpointLabel.textContent = 'POST ' + endpoint.href;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    answer.hidden = false;
    let body;
    try {
      body = JSON.stringify(JSON.parse(textarea.value));
    } catch (error) {
      output.textContent = 'The request is not valid JSON: ' + error.message;
      return;
    }
    button.disabled = true;
    output.textContent = 'Sending…';
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body,
      });
      const text = await response.text();
      let shown = text;
      try {
        shown = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // Not JSON (a proxy error page, say): show it as it came.
      }
      output.textContent = response.ok ? shown : `HTTP ${response.status}\n${shown}`;
    } catch (error) {
      output.textContent = 'The request failed: ' + error.message;
    } finally {
      button.disabled = false;
    }
  });
}

startPortal([{"name":"admin_addPeer","summary":"Connects to a peer and keeps it connected.","namespace":"admin","path":"methods/admin_addPeer.html","unavailable":false},{"name":"admin_addTrustedPeer","summary":"Marks a peer trusted: kept connected even over maxpeers.","namespace":"admin","path":"methods/admin_addTrustedPeer.html","unavailable":false},{"name":"admin_datadir","summary":"Returns the node's data directory.","namespace":"admin","path":"methods/admin_datadir.html","unavailable":false},{"name":"admin_nodeInfo","summary":"Returns this node's identity, addresses and chain.","namespace":"admin","path":"methods/admin_nodeInfo.html","unavailable":false},{"name":"admin_peers","summary":"Lists the connected peers in geth's shape.","namespace":"admin","path":"methods/admin_peers.html","unavailable":false},{"name":"admin_removePeer","summary":"Disconnects a peer and stops redialling it.","namespace":"admin","path":"methods/admin_removePeer.html","unavailable":false},{"name":"admin_removeTrustedPeer","summary":"Takes the trusted mark from a peer.","namespace":"admin","path":"methods/admin_removeTrustedPeer.html","unavailable":false},{"name":"checkpointing_getLatestBlock","summary":"Returns the block the federation should checkpoint next.","namespace":"checkpointing","path":"methods/checkpointing_getLatestBlock.html","unavailable":false},{"name":"checkpointing_pushCheckpoint","summary":"Submits federation signatures that checkpoint a block.","namespace":"checkpointing","path":"methods/checkpointing_pushCheckpoint.html","unavailable":false},{"name":"debug_accountRange","summary":"Pages through the accounts of a block's state (retesteth).","namespace":"debug","path":"methods/debug_accountRange.html","unavailable":false},{"name":"debug_getRawBlock","summary":"Returns a block's RLP encoding.","namespace":"debug","path":"methods/debug_getRawBlock.html","unavailable":false},{"name":"debug_getRawHeader","summary":"Returns a block header's RLP encoding.","namespace":"debug","path":"methods/debug_getRawHeader.html","unavailable":false},{"name":"debug_getRawReceipts","summary":"Returns a block's receipts in their consensus encoding.","namespace":"debug","path":"methods/debug_getRawReceipts.html","unavailable":false},{"name":"debug_getRawTransaction","summary":"Returns a transaction's signed encoding.","namespace":"debug","path":"methods/debug_getRawTransaction.html","unavailable":false},{"name":"debug_listPeersInfo","summary":"Lists peers with what they announced.","namespace":"debug","path":"methods/debug_listPeersInfo.html","unavailable":false},{"name":"debug_storageRangeAt","summary":"Pages through an account's storage at a block (retesteth).","namespace":"debug","path":"methods/debug_storageRangeAt.html","unavailable":false},{"name":"eth_accounts","summary":"Lists the addresses whose keys this node's keystore holds.","namespace":"eth","path":"methods/eth_accounts.html","unavailable":false},{"name":"eth_blockNumber","summary":"Returns the number of the newest block of the canonical chain.","namespace":"eth","path":"methods/eth_blockNumber.html","unavailable":false},{"name":"eth_call","summary":"Executes a message call without creating a transaction.","namespace":"eth","path":"methods/eth_call.html","unavailable":false},{"name":"eth_chainId","summary":"Returns the EIP-155 chain id.","namespace":"eth","path":"methods/eth_chainId.html","unavailable":false},{"name":"eth_coinbase","summary":"Returns the address that receives this node's mining rewards.","namespace":"eth","path":"methods/eth_coinbase.html","unavailable":false},{"name":"eth_createAccessList","summary":"Returns the EIP-2930 access list a call needs, and its gas with that list.","namespace":"eth","path":"methods/eth_createAccessList.html","unavailable":false},{"name":"eth_estimateGas","summary":"Estimates the gas a transaction needs.","namespace":"eth","path":"methods/eth_estimateGas.html","unavailable":false},{"name":"eth_feeHistory","summary":"Returns base fees, gas use and gas-price percentiles of recent blocks.","namespace":"eth","path":"methods/eth_feeHistory.html","unavailable":false},{"name":"eth_gasPrice","summary":"Returns a gas price suggestion in wei.","namespace":"eth","path":"methods/eth_gasPrice.html","unavailable":false},{"name":"eth_getBalance","summary":"Returns the balance of an account in wei.","namespace":"eth","path":"methods/eth_getBalance.html","unavailable":false},{"name":"eth_getBlockByHash","summary":"Returns a block by hash.","namespace":"eth","path":"methods/eth_getBlockByHash.html","unavailable":false},{"name":"eth_getBlockByNumber","summary":"Returns a block by number or tag.","namespace":"eth","path":"methods/eth_getBlockByNumber.html","unavailable":false},{"name":"eth_getBlockReceipts","summary":"Returns the receipts of every transaction in a block.","namespace":"eth","path":"methods/eth_getBlockReceipts.html","unavailable":false},{"name":"eth_getBlockTransactionCountByHash","summary":"Returns the number of transactions in a block, by block hash.","namespace":"eth","path":"methods/eth_getBlockTransactionCountByHash.html","unavailable":false},{"name":"eth_getBlockTransactionCountByNumber","summary":"Returns the number of transactions in a block, by number or tag.","namespace":"eth","path":"methods/eth_getBlockTransactionCountByNumber.html","unavailable":false},{"name":"eth_getCode","summary":"Returns the runtime bytecode at an address.","namespace":"eth","path":"methods/eth_getCode.html","unavailable":false},{"name":"eth_getFilterChanges","summary":"Returns what a filter has seen since its previous poll.","namespace":"eth","path":"methods/eth_getFilterChanges.html","unavailable":false},{"name":"eth_getFilterLogs","summary":"Returns every log matching a log filter.","namespace":"eth","path":"methods/eth_getFilterLogs.html","unavailable":false},{"name":"eth_getHeaderByHash","summary":"Returns a block's header by hash.","namespace":"eth","path":"methods/eth_getHeaderByHash.html","unavailable":false},{"name":"eth_getHeaderByNumber","summary":"Returns a block's header by number or tag.","namespace":"eth","path":"methods/eth_getHeaderByNumber.html","unavailable":false},{"name":"eth_getLogs","summary":"Returns the logs matching a filter.","namespace":"eth","path":"methods/eth_getLogs.html","unavailable":false},{"name":"eth_getProof","summary":"Returns an EIP-1186 Merkle proof of an account and some of its storage slots.","namespace":"eth","path":"methods/eth_getProof.html","unavailable":false},{"name":"eth_getRawTransactionByBlockHashAndIndex","summary":"Returns the signed bytes of a transaction, by block hash and position.","namespace":"eth","path":"methods/eth_getRawTransactionByBlockHashAndIndex.html","unavailable":false},{"name":"eth_getRawTransactionByBlockNumberAndIndex","summary":"Returns the signed bytes of a transaction, by block number and position.","namespace":"eth","path":"methods/eth_getRawTransactionByBlockNumberAndIndex.html","unavailable":false},{"name":"eth_getRawTransactionByHash","summary":"Returns the signed bytes of a transaction, by hash.","namespace":"eth","path":"methods/eth_getRawTransactionByHash.html","unavailable":false},{"name":"eth_getStorageAt","summary":"Returns one storage slot of a contract.","namespace":"eth","path":"methods/eth_getStorageAt.html","unavailable":false},{"name":"eth_getStorageRoot","summary":"Returns the storage-trie root of an account (an ETC extension).","namespace":"eth","path":"methods/eth_getStorageRoot.html","unavailable":false},{"name":"eth_getTransactionByBlockHashAndIndex","summary":"Returns a transaction by block hash and position.","namespace":"eth","path":"methods/eth_getTransactionByBlockHashAndIndex.html","unavailable":false},{"name":"eth_getTransactionByBlockNumberAndIndex","summary":"Returns a transaction by block number and position.","namespace":"eth","path":"methods/eth_getTransactionByBlockNumberAndIndex.html","unavailable":false},{"name":"eth_getTransactionByHash","summary":"Returns a transaction by hash.","namespace":"eth","path":"methods/eth_getTransactionByHash.html","unavailable":false},{"name":"eth_getTransactionCount","summary":"Returns the number of transactions an account has sent (its nonce).","namespace":"eth","path":"methods/eth_getTransactionCount.html","unavailable":false},{"name":"eth_getTransactionReceipt","summary":"Returns the receipt of a mined transaction.","namespace":"eth","path":"methods/eth_getTransactionReceipt.html","unavailable":false},{"name":"eth_getUncleByBlockHashAndIndex","summary":"Returns an uncle of a block, by block hash and uncle index.","namespace":"eth","path":"methods/eth_getUncleByBlockHashAndIndex.html","unavailable":false},{"name":"eth_getUncleByBlockNumberAndIndex","summary":"Returns an uncle of a block, by block number and uncle index.","namespace":"eth","path":"methods/eth_getUncleByBlockNumberAndIndex.html","unavailable":false},{"name":"eth_getUncleCountByBlockHash","summary":"Returns the number of uncles (ommers) in a block, by block hash.","namespace":"eth","path":"methods/eth_getUncleCountByBlockHash.html","unavailable":false},{"name":"eth_getUncleCountByBlockNumber","summary":"Returns the number of uncles (ommers) in a block, by number or tag.","namespace":"eth","path":"methods/eth_getUncleCountByBlockNumber.html","unavailable":false},{"name":"eth_getWork","summary":"Returns a proof-of-work package for external miners.","namespace":"eth","path":"methods/eth_getWork.html","unavailable":false},{"name":"eth_hashrate","summary":"Returns the hash rate of this node's miners, in hashes per second.","namespace":"eth","path":"methods/eth_hashrate.html","unavailable":false},{"name":"eth_maxPriorityFeePerGas","summary":"Returns a tip suggestion in wei: on Ethereum Classic, the gas price suggestion.","namespace":"eth","path":"methods/eth_maxPriorityFeePerGas.html","unavailable":false},{"name":"eth_mining","summary":"Tells whether this node is mining.","namespace":"eth","path":"methods/eth_mining.html","unavailable":false},{"name":"eth_newBlockFilter","summary":"Creates a filter that reports new block hashes.","namespace":"eth","path":"methods/eth_newBlockFilter.html","unavailable":false},{"name":"eth_newFilter","summary":"Creates a log filter to poll with eth_getFilterChanges.","namespace":"eth","path":"methods/eth_newFilter.html","unavailable":false},{"name":"eth_newPendingTransactionFilter","summary":"Creates a filter that reports new pending transaction hashes.","namespace":"eth","path":"methods/eth_newPendingTransactionFilter.html","unavailable":false},{"name":"eth_pendingTransactions","summary":"Lists the transactions waiting in this node's pool.","namespace":"eth","path":"methods/eth_pendingTransactions.html","unavailable":false},{"name":"eth_protocolVersion","summary":"Returns the eth wire-protocol version this node speaks.","namespace":"eth","path":"methods/eth_protocolVersion.html","unavailable":false},{"name":"eth_sendRawTransaction","summary":"Submits a signed transaction to the pool and the network.","namespace":"eth","path":"methods/eth_sendRawTransaction.html","unavailable":false},{"name":"eth_sendTransaction","summary":"Signs a transaction with a keystore account and submits it.","namespace":"eth","path":"methods/eth_sendTransaction.html","unavailable":false},{"name":"eth_sign","summary":"Signs a message with a keystore account (EIP-191).","namespace":"eth","path":"methods/eth_sign.html","unavailable":false},{"name":"eth_signTransaction","summary":"Signs a transaction with a node-held account without sending it.","namespace":"eth","path":"methods/eth_signTransaction.html","unavailable":false},{"name":"eth_signTypedData_v4","summary":"Signs EIP-712 typed data with a node-held account.","namespace":"eth","path":"methods/eth_signTypedData_v4.html","unavailable":false},{"name":"eth_submitHashrate","summary":"Reports an external miner's hash rate.","namespace":"eth","path":"methods/eth_submitHashrate.html","unavailable":false},{"name":"eth_submitWork","summary":"Submits a proof-of-work solution.","namespace":"eth","path":"methods/eth_submitWork.html","unavailable":false},{"name":"eth_subscribe","summary":"Subscribes to chain events pushed over the WebSocket connection.","namespace":"eth","path":"methods/eth_subscribe.html","unavailable":false},{"name":"eth_syncing","summary":"Reports synchronisation progress, or false when not syncing.","namespace":"eth","path":"methods/eth_syncing.html","unavailable":false},{"name":"eth_uninstallFilter","summary":"Removes a filter.","namespace":"eth","path":"methods/eth_uninstallFilter.html","unavailable":false},{"name":"eth_unsubscribe","summary":"Cancels a subscription.","namespace":"eth","path":"methods/eth_unsubscribe.html","unavailable":false},{"name":"iele_call","summary":"Executes an IELE call without a transaction.","namespace":"iele","path":"methods/iele_call.html","unavailable":true},{"name":"iele_sendTransaction","summary":"Sends an IELE transaction from an unlocked account.","namespace":"iele","path":"methods/iele_sendTransaction.html","unavailable":true},{"name":"mcp_initialize","summary":"Starts an MCP conversation: returns the server's protocol version and capabilities.","namespace":"mcp","path":"methods/mcp_initialize.html","unavailable":false},{"name":"miner_getStatus","summary":"Returns the mining state of this node.","namespace":"eth","path":"methods/miner_getStatus.html","unavailable":false},{"name":"miner_setEtherbase","summary":"Sets the coinbase of mined blocks.","namespace":"test","path":"methods/miner_setEtherbase.html","unavailable":false},{"name":"miner_start","summary":"Starts the built-in CPU miner.","namespace":"eth","path":"methods/miner_start.html","unavailable":false},{"name":"miner_stop","summary":"Stops the built-in CPU miner.","namespace":"eth","path":"methods/miner_stop.html","unavailable":false},{"name":"net_addToBlacklist","summary":"Blocks a peer by IP address or node id, for a while or for good.","namespace":"net","path":"methods/net_addToBlacklist.html","unavailable":false},{"name":"net_connectToPeer","summary":"Dials a peer by its enode URL.","namespace":"net","path":"methods/net_connectToPeer.html","unavailable":false},{"name":"net_disconnectPeer","summary":"Disconnects a peer.","namespace":"net","path":"methods/net_disconnectPeer.html","unavailable":false},{"name":"net_listBlacklistedPeers","summary":"Lists the blocked peer addresses.","namespace":"net","path":"methods/net_listBlacklistedPeers.html","unavailable":false},{"name":"net_listPeers","summary":"Lists the current peer connections.","namespace":"net","path":"methods/net_listPeers.html","unavailable":false},{"name":"net_listening","summary":"Returns whether the node accepts inbound peer connections.","namespace":"net","path":"methods/net_listening.html","unavailable":false},{"name":"net_peerCount","summary":"Returns the number of connected peers.","namespace":"net","path":"methods/net_peerCount.html","unavailable":false},{"name":"net_removeFromBlacklist","summary":"Unblocks a peer address or node id.","namespace":"net","path":"methods/net_removeFromBlacklist.html","unavailable":false},{"name":"net_version","summary":"Returns the network identifier as a decimal string.","namespace":"net","path":"methods/net_version.html","unavailable":false},{"name":"personal_ecRecover","summary":"Returns the address that signed a message (EIP-191).","namespace":"personal","path":"methods/personal_ecRecover.html","unavailable":false},{"name":"personal_importRawKey","summary":"Imports a private key into the keystore.","namespace":"personal","path":"methods/personal_importRawKey.html","unavailable":false},{"name":"personal_listAccounts","summary":"Lists the addresses in the keystore.","namespace":"personal","path":"methods/personal_listAccounts.html","unavailable":false},{"name":"personal_lockAccount","summary":"Locks an account.","namespace":"personal","path":"methods/personal_lockAccount.html","unavailable":false},{"name":"personal_newAccount","summary":"Creates a new key in the keystore.","namespace":"personal","path":"methods/personal_newAccount.html","unavailable":false},{"name":"personal_sendTransaction","summary":"Signs and sends a transaction with a passphrase.","namespace":"personal","path":"methods/personal_sendTransaction.html","unavailable":false},{"name":"personal_sign","summary":"Signs a message with a keystore key (EIP-191).","namespace":"personal","path":"methods/personal_sign.html","unavailable":false},{"name":"personal_signAndSendTransaction","summary":"Alias of personal_sendTransaction.","namespace":"personal","path":"methods/personal_signAndSendTransaction.html","unavailable":false},{"name":"personal_unlockAccount","summary":"Unlocks an account for signing.","namespace":"personal","path":"methods/personal_unlockAccount.html","unavailable":false},{"name":"prompts/get","summary":"Renders an MCP prompt.","namespace":"mcp","path":"methods/prompts-get.html","unavailable":false},{"name":"prompts/list","summary":"Lists the MCP prompts.","namespace":"mcp","path":"methods/prompts-list.html","unavailable":false},{"name":"qa_generateCheckpoint","summary":"Signs and submits an ECIP-1097 checkpoint with given keys (test networks).","namespace":"qa","path":"methods/qa_generateCheckpoint.html","unavailable":false},{"name":"qa_getFederationMembersInfo","summary":"Returns the configured checkpointing federation.","namespace":"qa","path":"methods/qa_getFederationMembersInfo.html","unavailable":false},{"name":"qa_mineBlocks","summary":"Orders the dev miner to mine blocks now (test networks).","namespace":"qa","path":"methods/qa_mineBlocks.html","unavailable":false},{"name":"resources/list","summary":"Lists the MCP resources.","namespace":"mcp","path":"methods/resources-list.html","unavailable":false},{"name":"resources/read","summary":"Reads an MCP resource.","namespace":"mcp","path":"methods/resources-read.html","unavailable":false},{"name":"rpc.discover","summary":"Returns this OpenRPC document.","namespace":"rpc","path":"methods/rpc.discover.html","unavailable":false},{"name":"rpc_modules","summary":"Lists the enabled namespaces.","namespace":"rpc","path":"methods/rpc_modules.html","unavailable":false},{"name":"svc_getAccountTransactions","summary":"Lists the transactions an account sent or received in a block range.","namespace":"svc","path":"methods/svc_getAccountTransactions.html","unavailable":false},{"name":"test_getLogHash","summary":"Returns the hash of a transaction's logs.","namespace":"test","path":"methods/test_getLogHash.html","unavailable":false},{"name":"test_importRawBlock","summary":"Imports an RLP-encoded block and returns its hash.","namespace":"test","path":"methods/test_importRawBlock.html","unavailable":false},{"name":"test_mineBlocks","summary":"Mines blocks from the pool at once.","namespace":"test","path":"methods/test_mineBlocks.html","unavailable":false},{"name":"test_modifyTimestamp","summary":"Sets the timestamp of the next mined block.","namespace":"test","path":"methods/test_modifyTimestamp.html","unavailable":false},{"name":"test_rewindToBlock","summary":"Drops every block above a number.","namespace":"test","path":"methods/test_rewindToBlock.html","unavailable":false},{"name":"test_setChainParams","summary":"Replaces the chain with a new test chain.","namespace":"test","path":"methods/test_setChainParams.html","unavailable":false},{"name":"tools/call","summary":"Runs an MCP tool.","namespace":"mcp","path":"methods/tools-call.html","unavailable":false},{"name":"tools/list","summary":"Lists the MCP tools.","namespace":"mcp","path":"methods/tools-list.html","unavailable":false},{"name":"txpool_content","summary":"Returns every pooled transaction, pending and queued, by sender and nonce.","namespace":"txpool","path":"methods/txpool_content.html","unavailable":false},{"name":"txpool_contentFrom","summary":"Returns one sender's pooled transactions, pending and queued, by nonce.","namespace":"txpool","path":"methods/txpool_contentFrom.html","unavailable":false},{"name":"txpool_inspect","summary":"Returns a one-line summary of every pooled transaction, by sender and nonce.","namespace":"txpool","path":"methods/txpool_inspect.html","unavailable":false},{"name":"txpool_status","summary":"Returns how many transactions are pending and queued.","namespace":"txpool","path":"methods/txpool_status.html","unavailable":false},{"name":"web3_clientVersion","summary":"Returns the client name and version.","namespace":"web3","path":"methods/web3_clientVersion.html","unavailable":false},{"name":"web3_sha3","summary":"Returns the Keccak-256 hash of the given data.","namespace":"web3","path":"methods/web3_sha3.html","unavailable":false}]);
