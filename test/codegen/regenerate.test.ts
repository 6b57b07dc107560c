import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../../codegen/document.js';
import { generate, generateClientPackage } from '../../codegen/generate.js';
import { openrpcFile, repoRoot as root } from './paths.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-codegen-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Relative path → content of every file below `dir`. */
function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dir, file), fs.readFileSync(file, 'utf8'));
  }
  return files;
}

describe('npm run codegen', () => {
  const doc = loadDocument(openrpcFile);

  /** One fresh generation, which both the byte-for-byte and the determinism cases read. */
  const generated = path.join(tmp, 'generated');
  beforeAll(() => generate(doc, generated));

  it('regenerates src/generated/ byte for byte (the committed output is current)', () => {
    const fresh = readTree(generated);
    const committed = readTree(path.join(root, 'src/generated'));
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [name, content] of fresh)
      expect(committed.get(name), `${name} is stale: run npm run codegen`).toBe(content);
  });

  it('regenerates the client package sources, clients/typescript/src/, byte for byte', async () => {
    const out = path.join(tmp, 'client');
    await generateClientPackage(doc, out);
    const fresh = readTree(out);
    const committed = readTree(path.join(root, 'clients/typescript/src'));
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [name, content] of fresh)
      expect(committed.get(name), `clients/typescript/src/${name} is stale: run npm run codegen`).toBe(content);
    // The same types as the node's handlers use: one generator, one API.
    expect(fresh.get('types.ts')).toBe(fs.readFileSync(path.join(root, 'src/generated/types.ts'), 'utf8'));
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
      expect(committed.get(name), `docs/${name} is stale: run npm run codegen`).toBe(content);
  });
});
