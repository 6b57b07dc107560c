import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeSpec } from '../../codegen/compose.js';
import { buildModel, loadDocument } from '../../codegen/document.js';
import { emitHandlerTable, findHandlers } from '../../codegen/emit-handler-table.js';
import { generate, generateClientPackage, generatePythonClient, HEADER } from '../../codegen/generate.js';
import { composeDocument, jsonText, PARTS_DIR, splitDocument, writeParts } from '../../codegen/spec-parts.js';
import { tracerRegistry } from '../../codegen/tracers.js';
import { openrpcFile, repoRoot as root } from './paths.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-codegen-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Relative path → content of every file below `dir`. */
function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue; // codegen's stamp
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), fs.readFileSync(file, 'utf8'));
  }
  return files;
}

describe('the spec in parts (openrpc/)', () => {
  it('openrpc.json is what the parts compose (the parts are the source: edit openrpc/, not openrpc.json)', () => {
    expect(
      fs.readFileSync(path.join(root, 'openrpc.json'), 'utf8') === composeSpec(root).text,
      'run npm run codegen',
    ).toBe(true);
  });

  it('splitting the composed document gives the committed parts back, file for file', () => {
    const parts = splitDocument(composeSpec(root).doc, tracerRegistry);
    const committed = readTree(path.join(root, PARTS_DIR));
    expect([...committed.keys()].sort()).toEqual([...parts.keys()].sort());
    for (const [name, content] of parts) expect(committed.get(name) === content, `openrpc/${name}`).toBe(true);
  });

  it('split then composed, any document comes back byte for byte', () => {
    const text = composeSpec(root).text;
    const dir = path.join(tmp, 'parts');
    writeParts(splitDocument(JSON.parse(text)), dir);
    expect(jsonText(composeDocument(dir)) === text).toBe(true);
  });

  it("GethTraceConfig's tracer names and tracerConfig come from the tracers' own registrations", () => {
    const config = composeSpec(root).doc.components!.schemas!.GethTraceConfig as {
      properties: { tracer: { enum: string[] }; tracerConfig: { properties: object } };
    };
    expect(config.properties.tracer.enum).toEqual([
      'callTracer',
      'flatCallTracer',
      'prestateTracer',
      '4byteTracer',
      'noopTracer',
    ]);
    expect(Object.keys(config.properties.tracerConfig.properties).sort()).toEqual(
      ['convertParityErrors', 'diffMode', 'includePrecompiles', 'onlyTopCall', 'withLog'].sort(),
    );
  });
});

describe('npm run codegen', () => {
  const doc = loadDocument(openrpcFile);

  it('regenerates the handler table (src/handlers/methods.generated.ts) byte for byte', () => {
    const fresh = emitHandlerTable(findHandlers(buildModel(doc), path.join(root, 'src/handlers')), HEADER);
    expect(fs.readFileSync(path.join(root, 'src/handlers/methods.generated.ts'), 'utf8') === fresh).toBe(true);
  });

  /** One fresh generation, which both the byte-for-byte and the determinism cases read. */
  const generated = path.join(tmp, 'generated');
  beforeAll(() => generate(doc, generated));

  it('regenerates src/generated/ byte for byte (the committed output is current)', () => {
    const fresh = readTree(generated);
    const committed = readTree(path.join(root, 'src/generated'));
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [name, content] of fresh)
      expect(
        committed.get(name),
        `${name} is stale: run npm run codegen (node bin/build.js does when openrpc/ changes)`,
      ).toBe(content);
  });

  it('regenerates the client package sources, clients/typescript/src/, byte for byte', async () => {
    const out = path.join(tmp, 'client');
    await generateClientPackage(doc, out);
    const fresh = readTree(out);
    const committed = readTree(path.join(root, 'clients/typescript/src'));
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [name, content] of fresh)
      expect(
        committed.get(name),
        `clients/typescript/src/${name} is stale: run npm run codegen (node bin/build.js does when openrpc/ changes)`,
      ).toBe(content);
    // The same types as the node's handlers use: one generator, one API.
    expect(fresh.get('types.ts')).toBe(fs.readFileSync(path.join(root, 'src/generated/types.ts'), 'utf8'));
  });

  it('regenerates the Python client, clients/python/svc_node_client/{types,client}.py, byte for byte', () => {
    const out = path.join(tmp, 'python');
    generatePythonClient(doc, out);
    const fresh = readTree(out);
    expect([...fresh.keys()].sort()).toEqual(['client.py', 'types.py']);
    const committed = path.join(root, 'clients/python/svc_node_client');
    for (const [name, content] of fresh)
      expect(
        fs.existsSync(path.join(committed, name)) && fs.readFileSync(path.join(committed, name), 'utf8') === content,
        `clients/python/svc_node_client/${name} is stale: run npm run codegen (node bin/build.js does when openrpc/ changes)`,
      ).toBe(true);
  });

  it('is deterministic: a second run from a copy of the document gives identical files', async () => {
    const again = path.join(tmp, 'again');
    await generate(structuredClone(doc), again);
    expect(readTree(again)).toEqual(readTree(generated));
  });

  const docsGenerator = path.join(root, 'codegen/docs/index.ts');
  it.runIf(fs.existsSync(docsGenerator))('regenerates docs/ byte for byte', async () => {
    const { generateDocs } = (await import(pathToFileURL(docsGenerator).href)) as {
      generateDocs: (d: typeof doc, dir: string) => unknown;
    };
    const out = path.join(tmp, 'docs');
    await generateDocs(doc, out);
    const fresh = readTree(out);
    const committed = readTree(path.join(root, 'docs'));
    for (const [name, content] of fresh)
      expect(
        committed.get(name),
        `docs/${name} is stale: run npm run codegen (node bin/build.js does when openrpc/ changes)`,
      ).toBe(content);
  });
});
