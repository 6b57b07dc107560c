/**
 * One page per method, always in the same order: a summary of at most 60 words, then parameters, result, errors
 * (each with what to do), limits (the settings, by TOML key), differences from geth/Anvil, further details, the
 * call in curl / TypeScript / cast, the example pairings as real JSON-RPC messages, and a "Try it" form prefilled
 * with the first example request (its chain-specific values refreshed from the live chain, see live-params.ts).
 */
import { html, prose, inlineProse, type Html } from '../html.js';
import { safetyBadge, availabilityBadge, extensionBadge, transportBadge } from '../badges.js';
import { page, namespaceHref } from '../layout.js';
import { renderType, constraintsOf, refName } from '../schema-type.js';
import type { DocsModel, ExampleView, MethodView, Schema } from '../model.js';
import { callExamples } from '../call-examples.js';
import { liveValues } from '../live-params.js';

/** The most words the summary paragraph at the top of a method page may have. */
export const SUMMARY_WORDS = 60;

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * The page's opening paragraph: the spec's summary, followed by the description when that is one short paragraph;
 * a longer description goes to the Details section so the top of the page stays readable.
 */
export function summaryParts(method: MethodView): { lead: string; details?: string } {
  const summary = method.summary ?? '';
  const paragraphs = (method.description ?? '')
    .trim()
    .split(/\n\s*\n/)
    .filter(Boolean);
  if (paragraphs.length === 0) return { lead: summary };
  const joined = summary ? `${summary} ${paragraphs[0]}` : paragraphs[0];
  if (wordCount(joined) <= SUMMARY_WORDS) {
    const rest = paragraphs.slice(1).join('\n\n');
    return rest ? { lead: joined, details: rest } : { lead: joined };
  }
  return { lead: summary, details: paragraphs.join('\n\n') };
}

const DIFFERENCE_LABEL: Readonly<Record<string, string>> = {
  geth: 'geth',
  anvil: 'Anvil',
  openethereum: 'OpenEthereum and core-geth',
  spec: 'ethereum/execution-apis',
};

const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

export function exampleRequest(method: MethodView, example: ExampleView | undefined): object {
  return { jsonrpc: '2.0', id: 1, method: method.name, params: example ? example.params : [] };
}

function exampleResponse(example: ExampleView): object | undefined {
  return example.result ? { jsonrpc: '2.0', id: 1, result: example.result.value } : undefined;
}

export function methodPage(model: DocsModel, method: MethodView): string {
  const root = '../';
  const ns = model.namespaces.find((n) => n.name === method.namespace);
  const describe = (schema: Schema, own: string | undefined): Html => {
    // Fall back to the referenced component's description so no row is left blank.
    const ref = refName(schema);
    const component = ref ? model.schemas[ref] : undefined;
    const inherited =
      typeof component === 'object' && typeof component.description === 'string' ? component.description : undefined;
    const text = own ?? inherited;
    const constraints = constraintsOf(schema);
    return html`${inlineProse(text)}${constraints ? html` <span class="constraints">(${constraints})</span>` : ''}`;
  };

  const { lead, details } = summaryParts(method);
  const actions = method.errors.some((e) => e.action !== undefined);
  const body = html`<nav class="breadcrumb" aria-label="Breadcrumb"><a href="${root}index.html">Overview</a> / <a href="${namespaceHref(root, method.namespace)}">${method.namespace}</a> / <span>${method.name}</span></nav>
<h1><code>${method.name}</code></h1>
<p class="badges">${availabilityBadge(method)} ${transportBadge(method)} ${extensionBadge(method)} <a class="badge-link" href="${namespaceHref(root, method.namespace)}">${method.namespace}</a> ${safetyBadge(ns?.safety)}${method.deprecated ? html` <span class="badge deprecated">deprecated</span>` : ''}</p>
${lead ? html`<p class="summary">${inlineProse(lead)}</p>` : ''}
${method.unavailable !== undefined ? html`<div class="notice notice-unavailable" role="note"><strong>Not yet available.</strong> This node answers <code>-32004 Method not supported</code>: ${inlineProse(method.unavailable)}</div>` : ''}
${method.transport === 'ws' ? html`<div class="notice notice-transport" role="note"><strong>WebSocket only.</strong> Call this method on a WebSocket connection to the node; it needs a connection that stays open to deliver notifications, so a plain HTTP POST cannot use it.</div>` : ''}
<section aria-labelledby="params">
<h2 id="params">Parameters</h2>
${
  method.params.length === 0
    ? html`<p>None: send <code>"params": []</code>.</p>`
    : html`<p class="hint">By position: <code>params</code> is an array in this order${method.params.some((p) => !p.required) ? '; optional trailing parameters may be left out' : ''}.</p>
<table class="params">
<thead><tr><th scope="col" class="num">#</th><th scope="col">Name</th><th scope="col">Required</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead>
<tbody>
${method.params.map(
  (
    p,
    i,
  ) => html`<tr><td class="num">${i}</td><th scope="row"><code>${p.name}</code></th><td>${p.required ? 'required' : 'optional'}</td><td>${renderType(p.schema, root)}</td><td>${describe(p.schema, p.description)}</td></tr>
`,
)}</tbody>
</table>`
}
</section>

<section aria-labelledby="result">
<h2 id="result">Result</h2>
${
  method.result
    ? html`<dl class="result"><dt><code>${method.result.name}</code></dt><dd>${renderType(method.result.schema, root)}${method.result.description || refName(method.result.schema) ? html` — ${describe(method.result.schema, method.result.description)}` : ''}</dd></dl>`
    : html`<p>No result.</p>`
}
</section>

<section aria-labelledby="errors">
<h2 id="errors">Errors</h2>
${
  method.errors.length === 0
    ? html`<p>Only the generic JSON-RPC errors (invalid params, internal error).</p>`
    : html`<table class="errors">
<thead><tr><th scope="col" class="num">Code</th><th scope="col">Message</th>${actions ? html`<th scope="col">What to do</th>` : ''}</tr></thead>
<tbody>
${method.errors.map(
  (
    e,
  ) => html`<tr><td class="num"><code>${e.code}</code></td><td>${inlineProse(e.message)}</td>${actions ? html`<td>${inlineProse(e.action)}</td>` : ''}</tr>
`,
)}</tbody>
</table>`
}
</section>
${
  method.limits.length === 0
    ? ''
    : html`
<section aria-labelledby="limits">
<h2 id="limits">Limits</h2>
<p class="hint">Settings, by TOML key; each is also a <code>--flag</code> and an environment variable (see the configuration guide).</p>
<table class="limits">
<thead><tr><th scope="col">Setting</th><th scope="col">What it bounds</th></tr></thead>
<tbody>
${method.limits.map(
  (l) => html`<tr><th scope="row"><code>${l.setting}</code></th><td>${inlineProse(l.effect)}</td></tr>
`,
)}</tbody>
</table>
</section>`
}${
  method.differences.length === 0
    ? ''
    : html`
<section aria-labelledby="differences">
<h2 id="differences">Differences from other nodes</h2>
<ul class="differences">
${method.differences.map(
  (d) => html`<li><strong>${DIFFERENCE_LABEL[d.from] ?? d.from}:</strong> ${inlineProse(d.text)}</li>
`,
)}</ul>
</section>`
}${
  details
    ? html`
<section aria-labelledby="details">
<h2 id="details">Details</h2>
${prose(details)}
</section>`
    : ''
}
${method.transport === 'ws' || method.unavailable !== undefined ? '' : callIt(method)}

<section aria-labelledby="examples">
<h2 id="examples">Examples</h2>
${method.examples.map((example) => {
  const response = exampleResponse(example);
  return html`<div class="example">
<h3>${example.name}</h3>
${example.summary ? html`<p>${inlineProse(example.summary)}</p>` : ''}
<div class="example-pair">
<figure><figcaption>Request</figcaption><pre><code>${pretty(exampleRequest(method, example))}</code></pre></figure>
${response ? html`<figure><figcaption>Response</figcaption><pre><code>${pretty(response)}</code></pre></figure>` : ''}
</div>
</div>
`;
})}
</section>

${method.transport === 'ws' ? '' : tryIt(method)}
`;
  return page(model, { title: method.name, root, current: method.namespace, body });
}

function callIt(method: MethodView): Html {
  return html`<section aria-labelledby="call-it">
<h2 id="call-it">Call it</h2>
<p class="hint">The first example below, against a dev node on its default port${liveValues(method).some((v) => v.kind.startsWith('range')) ? html` (its log range moved to <code>latest</code>, so it works on a chain of any length)` : ''}.</p>
${callExamples(method, method.examples[0]).map(
  (
    c,
  ) => html`<figure class="call-example"><figcaption>${c.tool}</figcaption><pre><code class="language-${c.language}">${c.code}</code></pre></figure>
`,
)}</section>`;
}

function tryIt(method: MethodView): Html {
  const live = liveValues(method);
  const request = pretty(exampleRequest(method, method.examples[0]));
  const rows = Math.min(16, request.split('\n').length + 1);
  return html`<section aria-labelledby="try-it" class="try-it">
<h2 id="try-it">Try it</h2>
<form class="try-it-form" data-method="${method.name}"${live.length > 0 ? html` data-live="${JSON.stringify(live)}"` : ''}>
<label for="try-it-request">Request sent to the node serving this page</label>
<textarea id="try-it-request" name="request" rows="${rows}" spellcheck="false">${request}</textarea>
<p class="try-it-live" role="status" hidden></p>
<div class="try-it-actions"><button type="submit">Try it</button> <span class="try-it-endpoint"></span></div>
</form>
<noscript><p>The form needs JavaScript.</p></noscript>
<div class="try-it-answer" hidden>
<h3 id="try-it-answer-heading">Answer</h3>
<pre aria-labelledby="try-it-answer-heading" aria-live="polite"><code class="try-it-output"></code></pre>
</div>
</section>`;
}
