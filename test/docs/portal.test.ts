/**
 * The docs portal end to end: the committed docs/ is what the generator makes from openrpc.json today, and in
 * headless Chromium the node's /docs finds eth_getBalance by search and "Try it" on web3_clientVersion shows
 * the node's real answer; the front page links every guide, a guide is a rendered page, and "Try it" on
 * eth_getBalance shows the value the page's example shows; the search box finds eth_getLogs from "logs"; and on a
 * fresh dev chain with one sent transaction, debug_traceTransaction's Try it swaps the recorded hash for that one
 * and answers a trace. Screenshots of the front page, a guide and a method page go to $PORTAL_SCREENS (a temporary folder
 * unless set; docs/screenshots/ holds committed ones). Skipped, saying why, when Chromium is absent and can't be installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext } from 'playwright-core';
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

// Committed screenshots change with every run (port, hashes): the suite writes them to a temporary folder unless
// asked (PORTAL_SCREENS=docs/screenshots to refresh the committed ones).
const SCREENS = process.env.PORTAL_SCREENS ?? mkdtempSync(join(tmpdir(), 'svc-portal-screens-'));

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
  let browser: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    // Installs Debian's Chromium when it is missing and the suite may (root, apt); else the reason, and a skip.
    try {
      execFileSync(join(repoRoot, 'scripts/ensure-chromium.sh'), { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      chromiumProblem = stderr || String(error);
      console.warn(`skipping the browser test: ${chromiumProblem}`);
      return;
    }
    node = await startNode();
    // A fresh profile each run, so nothing cached by an earlier run (an old portal.js) is used.
    profile = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
      viewport: { width: 1280, height: 900 },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await node?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
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

    await page.getByLabel('Search guides and methods').pressSequentially('eth_getBalance');
    const result = page.locator('#portal-search-results a', { hasText: 'eth_getBalance' }).first();
    await result.waitFor({ state: 'visible' });

    await page.getByLabel('Search guides and methods').fill('');
    await page.getByLabel('Search guides and methods').pressSequentially('web3_clientVersion');
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
    const page = await browser!.newPage();
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

    expect(pageErrors).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('finds eth_getLogs from "logs", and a guide from its topic', async (context) => {
    if (chromiumProblem) {
      context.skip();
      return;
    }
    const page = await browser!.newPage();
    await page.goto(new URL('/docs/', node!.url).href);
    const search = page.getByLabel('Search guides and methods');
    await search.pressSequentially('logs');
    await page.locator('#portal-search-results a', { hasText: 'eth_getLogs' }).first().waitFor({ state: 'visible' });
    await search.fill('');
    await search.pressSequentially('peering');
    await page.locator('#portal-search-results a', { hasText: 'guide' }).first().waitFor({ state: 'visible' });
    await page.close();
  });

  it("debug_traceTransaction's Try it traces the fresh dev chain's one transaction, not the recorded one", async (context) => {
    if (chromiumProblem) {
      context.skip();
      return;
    }
    mkdirSync(SCREENS, { recursive: true });
    const rpc = async (method: string, params: unknown[]) => {
      const response = await fetch(node!.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
      return answer.result;
    };
    const [from] = (await rpc('eth_accounts', [])) as string[];
    const hash = (await rpc('eth_sendTransaction', [
      { from, to: '0x000000000000000000000000000000000000dEaD', value: '0x1' },
    ])) as string;
    await expect.poll(() => rpc('eth_getTransactionReceipt', [hash]), { timeout: 15_000 }).toBeTruthy();

    const page = await browser!.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(new URL('/docs/methods/debug_traceTransaction.html', node!.url).href);
    for (const id of ['params', 'result', 'errors', 'limits', 'differences', 'call-it', 'examples'])
      expect(await page.locator(`#${id}`).count(), id).toBe(1);

    const note = page.locator('.try-it-live');
    await note.waitFor({ state: 'visible' });
    expect(await note.textContent()).toContain('is not on this chain');
    const request = JSON.parse(await page.locator('#try-it-request').inputValue()) as { params: unknown[] };
    expect(request.params[0]).toBe(hash);

    await page.getByRole('button', { name: 'Try it' }).click();
    const output = page.locator('.try-it-output');
    await expect.poll(() => output.textContent(), { timeout: 15_000 }).toMatch(/"(result|error)"/);
    const answer = JSON.parse((await output.textContent()) ?? '') as {
      result?: { type?: string; to?: string };
      error?: unknown;
    };
    expect(answer.error).toBeUndefined();
    expect(answer.result?.type).toBe('CALL');
    expect(answer.result?.to).toBe('0x000000000000000000000000000000000000dead');
    await page.locator('.try-it').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENS, 'portal-method-debug_traceTransaction.png'), fullPage: true });

    // eth_getLogs asks for a recent range of this chain, not the recorded one.
    await page.goto(new URL('/docs/methods/eth_getLogs.html', node!.url).href);
    await note.waitFor({ state: 'visible' });
    const head = Number.parseInt((await rpc('eth_blockNumber', [])) as string, 16);
    const logsRequest = JSON.parse(await page.locator('#try-it-request').inputValue()) as {
      params: [{ fromBlock: string }];
    };
    expect(Number.parseInt(logsRequest.params[0].fromBlock, 16)).toBe(Math.max(0, head - 99));
    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => output.textContent(), { timeout: 15_000 }).toContain('"result"');

    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
