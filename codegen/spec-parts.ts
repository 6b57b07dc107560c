/**
 * The spec in parts: `openrpc/` is the source, `openrpc.json` is composed from it by `npm run codegen`.
 *
 *   openrpc/document.json            openrpc, info, servers; `methods` lists the namespace files in document order,
 *                                    each component section names its file
 *   openrpc/methods/<namespace>.json that namespace's methods, in document order
 *   openrpc/components/<section>.json one file per component section (schemas, errors, tags)
 *
 * A change to one method is a change to one namespace's file, so branches that touch different namespaces merge
 * without conflicts. What the code already knows is not written in the parts but filled in when composing (see
 * `derived` below: the tracer names and their configs come from the engine's tracer registry).
 *
 * `splitDocument` is the inverse of `composeDocument` (`npm run spec:split` takes an openrpc.json into the parts:
 * the one-command way back after a branch edited openrpc.json itself).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { JsonSchema, MethodObject, OpenRpcDocument } from './document.js';

export const PARTS_DIR = 'openrpc';
const SKELETON = 'document.json';

/** The committed skeleton: the document with each part replaced by the path of its file. */
interface Skeleton {
  methods: string[];
  components: Record<string, string>;
  [key: string]: unknown;
}

/** What composing adds to the parts, and splitting takes out again (the two must agree to the byte). */
export interface Derived {
  /** Fills the derived fields into a composed document (in place). */
  fill(doc: OpenRpcDocument): void;
  /** Takes the derived fields out of a document about to be split, checking they are what `fill` would write. */
  strip(doc: OpenRpcDocument): void;
}

export const noDerived: Derived = { fill: () => {}, strip: () => {} };

/** The document's text as it is written to openrpc.json (and as the parts are written): 2-space JSON, final newline. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

function namespaceOf(method: MethodObject): string {
  const tag = method.tags?.[0];
  const name = tag?.$ref?.replace(/^#\/components\/tags\//, '') ?? tag?.name;
  if (!name) throw new Error(`${method.name}: no namespace tag, so no openrpc/methods/ file to put it in`);
  return name;
}

/** Reads the parts below `partsDir` into one document. */
export function composeDocument(partsDir: string, derived: Derived = noDerived): OpenRpcDocument {
  const skeleton = readJson(path.join(partsDir, SKELETON)) as Skeleton;
  const doc: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(skeleton)) {
    if (key === 'methods') {
      doc.methods = skeleton.methods.flatMap((file) => readJson(path.join(partsDir, file)) as MethodObject[]);
    } else if (key === 'components') {
      doc.components = Object.fromEntries(
        Object.entries(skeleton.components).map(([section, file]) => [
          section,
          readJson(path.join(partsDir, file)) as Record<string, JsonSchema>,
        ]),
      );
    } else doc[key] = value;
  }
  const composed = doc as OpenRpcDocument;
  derived.fill(composed);
  return composed;
}

/**
 * Part file (relative to the parts directory) → content. Methods stay in document order; a namespace whose
 * methods are not contiguous in the document is refused (composing could not give the same document back).
 */
export function splitDocument(source: OpenRpcDocument, derived: Derived = noDerived): Map<string, string> {
  const doc = structuredClone(source);
  derived.strip(doc);
  const files = new Map<string, string>();
  const byNamespace = new Map<string, MethodObject[]>();
  let last: string | undefined;
  for (const method of doc.methods) {
    const ns = namespaceOf(method);
    if (ns !== last && byNamespace.has(ns))
      throw new Error(
        `${method.name}: the ${ns} methods are not together in the document; move it next to the other ${ns} methods`,
      );
    last = ns;
    byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), method]);
  }
  const skeleton: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'methods') skeleton.methods = [...byNamespace.keys()].map((ns) => `methods/${ns}.json`);
    else if (key === 'components') {
      skeleton.components = Object.fromEntries(
        Object.keys(value as object).map((section) => [section, `components/${section}.json`]),
      );
    } else skeleton[key] = value;
  }
  files.set(SKELETON, jsonText(skeleton));
  for (const [ns, methods] of byNamespace) files.set(`methods/${ns}.json`, jsonText(methods));
  for (const [section, content] of Object.entries(doc.components ?? {}))
    files.set(`components/${section}.json`, jsonText(content));
  return files;
}

/** Writes the parts, removing part files the document no longer has (a namespace or section that went away). */
export function writeParts(files: Map<string, string>, partsDir: string): string[] {
  const written: string[] = [];
  for (const sub of ['methods', 'components']) {
    const dir = path.join(partsDir, sub);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir))
      if (!files.has(`${sub}/${name}`)) fs.rmSync(path.join(dir, name), { force: true });
  }
  for (const [name, content] of files) {
    const file = path.join(partsDir, name);
    if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) continue;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    written.push(file);
  }
  return written;
}
