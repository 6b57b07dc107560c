/**
 * openrpc.ts: the document as a module, so rpc.discover never reads files at request time.
 *
 * The document is a JSON string parsed on first use, not an object literal: every node start loads this module
 * (the handler table reaches it), but only rpc.discover and MCP read the document. An 800 KB object literal cost
 * ~40 ms of CPU per start to compile and build; the string costs a scan, and JSON.parse (~10 ms) runs only when
 * asked. Non-ASCII characters are escaped so the module's source stays one-byte text (V8 and Node decode and scan
 * that faster than two-byte text).
 */
import type { OpenRpcDocument } from './document.js';

/** `text` as a JavaScript string literal of ASCII characters only. */
function asciiStringLiteral(text: string): string {
  return JSON.stringify(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function emitOpenrpc(doc: OpenRpcDocument, header: string): string {
  return `${header}
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

let parsed: { readonly [key: string]: JsonValue } | undefined;

/** The OpenRPC document, parsed on the first call; every call returns that same object (do not mutate it). */
export function openrpcDocument(): { readonly [key: string]: JsonValue } {
  parsed ??= JSON.parse(documentText) as { readonly [key: string]: JsonValue };
  return parsed;
}

const documentText = ${asciiStringLiteral(JSON.stringify(doc))};
`;
}
