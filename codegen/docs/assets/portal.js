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
    text: (entry.name + ' ' + entry.summary + ' ' + (entry.keywords || '')).toLowerCase(),
  }));

  // Methods whose name holds the query come first (getLogs for "logs"), then guides, then the rest.
  function rank(item, query) {
    if (item.name === query) return 0;
    if (item.name.startsWith(query)) return 1;
    if (item.name.includes(query)) return 2;
    if (item.entry.kind === 'guide') return 3;
    return 4;
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
        ? 'Nothing matches.'
        : matches.length > MAX_RESULTS
          ? `${matches.length} guides and methods match; showing the first ${MAX_RESULTS}.`
          : `${matches.length} ${matches.length === 1 ? 'match' : 'matches'}.`;
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
  const name = document.createElement(entry.kind === 'guide' ? 'strong' : 'code');
  name.textContent = entry.name;
  if (entry.kind === 'guide') {
    const badge = document.createElement('span');
    badge.className = 'badge guide';
    badge.textContent = 'guide';
    link.append(badge, ' ');
  }
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
  const live = JSON.parse(form.dataset.live || '[]');
  const liveNote = form.querySelector('.try-it-live');
  // Started at once, so the textarea shows the values that will be sent; a submit waits for it.
  const filled = live.length === 0 ? Promise.resolve() : fillFromChain(endpoint, textarea, live, liveNote);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    answer.hidden = false;
    await filled;
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

// --- Try it on whatever chain the node runs ---------------------------------------------------------------------

async function rpc(endpoint, method, params) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = await response.json();
  if (answer.error) throw new Error(answer.error.message);
  return answer.result;
}

const RECENT_BLOCKS = 256;
const LOG_RANGE = 100;
const short = (hash) => hash.slice(0, 10) + '…';
const toHex = (n) => '0x' + n.toString(16);

/** The newest transaction within the last RECENT_BLOCKS blocks, or undefined. */
async function recentTransaction(endpoint, head) {
  for (let n = head; n >= 0 && n > head - RECENT_BLOCKS; n--) {
    const block = await rpc(endpoint, 'eth_getBlockByNumber', [toHex(n), false]);
    const txs = block ? block.transactions : [];
    if (txs.length > 0) return { hash: txs[txs.length - 1], block: n };
  }
  return undefined;
}

function pathGet(params, path) {
  let value = params;
  for (const key of path) value = value == null ? undefined : value[key];
  return value;
}

function pathSet(params, path, value) {
  let target = params;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path[path.length - 1]] = value;
}

/**
 * Replaces the example's recorded hashes and block numbers that this chain does not have with live ones (and a log
 * range with the last LOG_RANGE blocks), rewrites the textarea, and says what was replaced.
 */
async function fillFromChain(endpoint, textarea, live, note) {
  let request;
  try {
    request = JSON.parse(textarea.value);
  } catch {
    return;
  }
  const notes = [];
  try {
    const head = parseInt(await rpc(endpoint, 'eth_blockNumber', []), 16);
    for (const { path, kind } of live) {
      const recorded = pathGet(request.params, path);
      if (recorded === undefined) continue;
      if (kind === 'transaction') {
        if (await rpc(endpoint, 'eth_getTransactionByHash', [recorded])) continue;
        const tx = await recentTransaction(endpoint, head);
        if (tx) {
          pathSet(request.params, path, tx.hash);
          notes.push(
            `transaction ${short(recorded)} is not on this chain: using ${short(tx.hash)}, the latest one (block ${tx.block})`,
          );
        } else {
          notes.push(
            `transaction ${short(recorded)} is not on this chain and none of its last ${RECENT_BLOCKS} blocks holds one: send a transaction, then reload`,
          );
        }
      } else if (kind === 'block-hash') {
        if (await rpc(endpoint, 'eth_getBlockByHash', [recorded, false])) continue;
        const latest = await rpc(endpoint, 'eth_getBlockByNumber', ['latest', false]);
        pathSet(request.params, path, latest.hash);
        notes.push(`block ${short(recorded)} is not on this chain: using the latest block, ${toHex(head)}`);
      } else if (kind === 'block-number') {
        const number = typeof recorded === 'number' ? recorded : parseInt(recorded, 16);
        if (number <= head) continue;
        pathSet(request.params, path, typeof recorded === 'number' ? head : toHex(head));
        notes.push(`block ${number} is past this chain's head: using the latest block, ${head}`);
      } else if (kind === 'range-from' || kind === 'range-to') {
        const from = Math.max(0, head - LOG_RANGE + 1);
        pathSet(request.params, path, toHex(kind === 'range-from' ? from : head));
        if (kind === 'range-from')
          notes.push(`the range starts at a recent block: ${toHex(from)}, ${LOG_RANGE} blocks below the head at most`);
      }
    }
  } catch {
    // The node is not reachable or refuses a lookup: leave the recorded example as it is.
    return;
  }
  if (notes.length === 0) return;
  textarea.value = JSON.stringify(request, null, 2);
  note.textContent = 'Filled from the live chain: ' + notes.join('; ') + '.';
  note.hidden = false;
}
