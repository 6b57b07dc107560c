/** The published document, composed from openrpc/ with the tracer registry's part (what `npm run codegen` writes). */
import path from 'node:path';
import type { OpenRpcDocument } from './document.js';
import { composeDocument, jsonText, PARTS_DIR } from './spec-parts.js';
import { tracerRegistry } from './tracers.js';

export function composeSpec(root: string): { doc: OpenRpcDocument; text: string } {
  const doc = composeDocument(path.join(root, PARTS_DIR), tracerRegistry);
  return { doc, text: jsonText(doc) };
}
