/** Small labelled badges: a namespace's safety class, a method's availability, transport and extension source. */
import { html, type Html } from './html.js';
import type { MethodView } from './model.js';

/** What each `x-safety` class asks of an operator, shown next to the badge. */
export const SAFETY_MEANING: Readonly<Record<string, string>> = {
  safe: 'read-only or harmless; fine to expose',
  write: 'changes node or chain state; expose deliberately',
  development: 'holds or uses keys; never expose publicly',
  caution: 'heavy or revealing; keep to trusted callers',
  testing: 'for test networks and harnesses only',
  optional: 'only present when its feature is enabled',
};

export function safetyBadge(safety: string | undefined): Html {
  if (!safety) return html``;
  const known = Object.hasOwn(SAFETY_MEANING, safety);
  return html`<span class="badge safety safety-${known ? safety : 'other'}" title="${known ? SAFETY_MEANING[safety] : ''}">${safety}</span>`;
}

export function availabilityBadge(method: MethodView): Html {
  return method.unavailable === undefined
    ? html`<span class="badge available">available</span>`
    : html`<span class="badge unavailable" title="${method.unavailable}">not yet available</span>`;
}

/** Whose API an extension method follows, e.g. "geth". */
const EXTENSION_SOURCE: Readonly<Record<string, string>> = {
  geth: 'geth and core-geth',
  openethereum: 'OpenEthereum (Parity), as core-geth serves it',
  anvil: "Foundry's Anvil (with Hardhat's aliases)",
  otterscan: "Otterscan's API as Erigon and Anvil serve it",
  'svc-node': "this node's own (no other client has it)",
};

export function extensionBadge(method: MethodView): Html {
  if (method.extension === undefined) return html``;
  const source = EXTENSION_SOURCE[method.extension] ?? method.extension;
  return html`<span class="badge extension" title="not in the spec's catalog; shapes follow ${source}">extension: ${method.extension}</span>`;
}

export function transportBadge(method: MethodView): Html {
  return method.transport === 'ws' ? html`<span class="badge transport">WebSocket only</span>` : html``;
}
