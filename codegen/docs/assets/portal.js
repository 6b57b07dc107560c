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
