/**
 * The docs portal end to end: the committed docs/ is what the generator makes from openrpc.json today, and in
 * headless Chromium the node's /docs finds eth_getBalance by search and "Try it" on web3_clientVersion shows
 * the node's real answer; the front page links every guide, a guide is a rendered page, and "Try it" on
 * eth_getBalance shows the value the page's example shows. Screenshots go to /work/screens/ (or $PORTAL_SCREENS).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { GENERATED_ENTRIES, generateDocs } from '../../codegen/docs/index.js';
import { GUIDES } from '../../codegen/docs/guides.js';
import { repoRoot, startNode, type NodeProcess } from '../helpers/node-process.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

const SCREENS = process.env.PORTAL_SCREENS ?? '/work/screens';

const readDocument = (): object => JSON.parse(readFileSync(join(repoRoot, 'openrpc.json'), 'utf8')) as object;

describe('generated docs portal', () => {
  it('docs/ is up to date with openrpc.json and regeneration is byte-identical', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    try {
      await generateDocs(readDocument(), fresh);
      const committed = join(repoRoot, 'docs');
      // Hand-written files beside the portal (docs/grafana-dashboard.json) are not the generator's to compare.
      const generated = (name: string) =>
        GENERATED_ENTRIES.some((entry) => name === entry || name.startsWith(`${entry}/`));
      const names = (dir: string) =>
        listFiles(dir)
          .map((f) => relative(dir, f))
          .filter(generated)
          .sort();
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
      const all = listFiles(dir)
        .filter((f) => f.endsWith('.html'))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
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

  it('links every guide from the front page, renders guides as pages, and Try it shows the example value', async (context) => {
    if (chromiumProblem) {
      context.skip();
      return;
    }
    mkdirSync(SCREENS, { recursive: true });
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });

    // The first URL a person opens.
    await page.goto(node!.url);
    await page.waitForURL(/\/docs\/$/);
    await page.screenshot({ path: join(SCREENS, 'portal-front-page.png'), fullPage: true });

    const guideLinks = page.locator('#guides + .guide-list a');
    const hrefs = (await Promise.all((await guideLinks.all()).map((a) => a.getAttribute('href')))).map(
      (href) => new URL(href ?? '', page.url()).href,
    );
    expect(hrefs).toEqual(GUIDES.map((g) => new URL(`/docs/guides/${g.slug}.html`, node!.url).href));
    // The operating guide used to be raw Markdown served as text/plain.
    expect(await page.locator('main a[href$=".md"]').count()).toBe(0);

    for (const guide of GUIDES) {
      const response = await page.goto(new URL(`/docs/guides/${guide.slug}.html`, node!.url).href);
      expect(response?.headers()['content-type'], guide.slug).toMatch(/^text\/html/);
      const main = page.locator('main');
      await expect.poll(() => main.locator('h1').count(), { message: guide.slug }).toBe(1);
      expect(await main.locator('pre code').count(), `${guide.slug}: code blocks`).toBeGreaterThan(0);
      expect(await page.locator(`.site-nav a[aria-current="page"]`).textContent(), guide.slug).toBe(guide.label);
      // Rendered, not Markdown: no fences, heading hashes, link syntax or table rules left in the visible text
      // outside code blocks.
      let prose = await main.innerText();
      for (const code of await main.locator('pre').allInnerTexts()) prose = prose.replace(code, '');
      expect(prose, guide.slug).not.toMatch(/```|^#{1,6} |\]\(|^\|?\s*-{3,}\s*\|/m);
      expect(prose.split('\n').length, guide.slug).toBeGreaterThan(5);
    }

    await page.goto(new URL('/docs/guides/getting-started.html', node!.url).href);
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Getting started');
    expect(await page.locator('pre[data-tested] code.language-sh').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENS, 'portal-guide-getting-started.png'), fullPage: true });

    // eth_getBalance: the response the page shows for its first example, then the node's answer to Try it.
    await page.goto(new URL('/docs/methods/eth_getBalance.html', node!.url).href);
    const shown = JSON.parse(
      (await page
        .locator('.example')
        .first()
        .locator('figure', { hasText: 'Response' })
        .locator('code')
        .textContent()) ?? '',
    ) as {
      result: string;
    };
    expect(shown.result).toBe('0xd3c21bcecceda1000000');
    const request = JSON.parse(await page.locator('#try-it-request').inputValue()) as { params: unknown[] };
    expect(request.params).toEqual(['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 'earliest']);
    await page.getByRole('button', { name: 'Try it' }).click();
    const output = page.locator('.try-it-output');
    await expect.poll(() => output.textContent(), { timeout: 15_000 }).toContain('"result"');
    expect((JSON.parse((await output.textContent()) ?? '') as { result?: unknown }).result).toBe(shown.result);
    await page.locator('.try-it').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS, 'portal-method-eth_getBalance.png'), fullPage: true });

    expect(pageErrors).toEqual([]);
    expect(failed).toEqual([]);
  });
});
