/**
 * The docs portal end to end: the committed docs/ is what the generator makes from openrpc.json today, and in
 * headless Chromium the node's /docs finds eth_getBalance by search and "Try it" on web3_clientVersion shows
 * the node's real answer.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { GENERATED_ENTRIES, generateDocs } from '../../codegen/docs/index.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const readDocument = (): object => JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as object;

describe('generated docs portal', () => {
  it('docs/ is up to date with openrpc.json and regeneration is byte-identical', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    try {
      await generateDocs(readDocument(), fresh);
      const committed = join(repoRoot, 'docs');
      // Hand-written files beside the portal (docs/grafana-dashboard.json) are not the generator's to compare.
      const generated = (name: string) => GENERATED_ENTRIES.some((entry) => name === entry || name.startsWith(`${entry}/`));
      const names = (dir: string) => listFiles(dir).map((f) => relative(dir, f)).filter(generated).sort();
      expect(names(committed), 'run `npm run codegen` to regenerate docs/').toEqual(names(fresh));
      for (const name of names(fresh)) {
        expect(readFileSync(join(committed, name), 'utf8'), `docs/${name} is stale: run npm run codegen`).toBe(
          readFileSync(join(fresh, name), 'utf8'),
        );
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('escapes document text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    try {
      const doc = readDocument() as { methods: Array<Record<string, unknown>> };
      doc.methods[0] = { ...doc.methods[0], summary: '<img src=x onerror=alert(1)> & "quotes"' };
      await generateDocs(doc, dir);
      // The search index inside portal.js keeps the raw text: the script only ever assigns it to textContent.
      const all = listFiles(dir).filter((f) => f.endsWith('.html')).map((f) => readFileSync(f, 'utf8')).join('\n');
      expect(all).not.toContain('<img src=x');
      expect(all).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;quotes&quot;');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('docs portal in headless Chromium', () => {
  let chromiumProblem: string | undefined;
  let node: NodeProcess | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    try {
      execFileSync(join(repoRoot, 'scripts/ensure-chromium.sh'), { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      chromiumProblem = stderr || String(error);
      console.warn(`skipping the browser test: ${chromiumProblem}`);
      return;
    }
    node = await startNode();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await node?.stop();
  });

  it('searches for a method and tries web3_clientVersion against the node', async (context) => {
    if (chromiumProblem) {
      context.skip();
      return;
    }
    const page = await browser!.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(new URL('/docs', node!.url).href);
    await expect.poll(() => page.title()).toContain('Overview');

    await page.getByLabel('Search methods').pressSequentially('eth_getBalance');
    const result = page.locator('#portal-search-results a', { hasText: 'eth_getBalance' }).first();
    await result.waitFor({ state: 'visible' });

    await page.getByLabel('Search methods').fill('');
    await page.getByLabel('Search methods').pressSequentially('web3_clientVersion');
    await page.locator('#portal-search-results a', { hasText: 'web3_clientVersion' }).first().click();
    await page.waitForURL(/\/docs\/methods\/web3_clientVersion\.html$/);

    await page.getByRole('button', { name: 'Try it' }).click();
    const output = page.locator('.try-it-output');
    await expect.poll(() => output.textContent(), { timeout: 15_000 }).toContain('"result"');
    const answer = JSON.parse((await output.textContent()) ?? '') as { result?: unknown };
    expect(typeof answer.result).toBe('string');
    expect(answer.result as string).toMatch(/^svc-node\//);

    expect(pageErrors).toEqual([]);
    expect(failed).toEqual([]);
  });
});
