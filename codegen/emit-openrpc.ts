/** openrpc.ts: the document as a module, so rpc.discover never reads files at request time. */
import type { OpenRpcDocument } from './document.js';

export function emitOpenrpc(doc: OpenRpcDocument, header: string): string {
  return `${header}
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export const openrpcDocument: { readonly [key: string]: JsonValue } = ${JSON.stringify(doc, null, 2)};
`;
}
