/**
 * Method pages read the same way everywhere: the prose between the title and the first section is one paragraph of
 * at most 60 words, then the sections; a limit names a setting that exists; the tracing and eth_getLogs pages carry
 * their limits, differences and errors with what to do; "Try it" knows which example values belong to the recorded
 * chain; and the search index holds the guides beside the methods.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUIDES } from '../../codegen/docs/guides.js';
import { buildModel } from '../../codegen/docs/model.js';
import { liveValues } from '../../codegen/docs/live-params.js';
import { SUMMARY_WORDS, methodPage } from '../../codegen/docs/pages/method-page.js';
import { buildSearchIndex } from '../../codegen/docs/search-index.js';
import { isSettingKey } from '../../src/node/settings/index.js';
import { repoRoot } from '../helpers/node-process.js';

const document = JSON.parse(await readFile(join(repoRoot, 'openrpc.json'), 'utf8')) as object;
const model = buildModel(document);
const method = (name: string) => model.methods.find((m) => m.name === name)!;
const textOf = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, '')
    .replace(/&(?:#\d+|[a-z]+);/g, '_')
    .split(/\s+/)
    .filter(Boolean);

/** The paragraphs between the page's title and its first section, badges and notices left out. */
function opening(page: string): string[] {
  const main = page.slice(page.indexOf('</h1>'), page.indexOf('<section'));
  return [...main.matchAll(/<p(?: class="([^"]*)")?>([\s\S]*?)<\/p>/g)]
    .filter((m) => m[1] !== 'badges')
    .map((m) => m[2]);
}

describe('method pages', () => {
  it(`open with one paragraph of at most ${SUMMARY_WORDS} words on every page`, () => {
    const tooLong: string[] = [];
    for (const m of model.methods) {
      const paragraphs = opening(methodPage(model, m));
      expect(paragraphs.length, m.name).toBeLessThanOrEqual(1);
      const words = paragraphs.length === 0 ? 0 : textOf(paragraphs[0]).length;
      if (words > SUMMARY_WORDS) tooLong.push(`${m.name} (${words} words)`);
    }
    expect(tooLong).toEqual([]);
  });

  it('name only settings that exist, as code', () => {
    const unknown = model.methods.flatMap((m) =>
      m.limits.filter((l) => !isSettingKey(l.setting)).map((l) => `${m.name}: ${l.setting}`),
    );
    expect(unknown).toEqual([]);
    const page = methodPage(model, method('debug_traceTransaction'));
    expect(page).toContain('<code>network.rpc.debug.trace-timeout</code>');
  });

  it.each([
    'debug_traceTransaction',
    'debug_traceCall',
    'debug_traceBlockByNumber',
    'trace_filter',
    'trace_block',
    'eth_getLogs',
  ])('%s has limits, errors with what to do, and the call in curl, TypeScript and cast', (name) => {
    const m = method(name);
    expect(m.limits.length, name).toBeGreaterThan(0);
    expect(
      m.errors.filter((e) => !e.action).map((e) => e.code),
      `${name}: errors without what to do`,
    ).toEqual([]);
    const page = methodPage(model, m);
    for (const id of ['params', 'result', 'errors', 'limits', 'call-it', 'examples', 'try-it'])
      expect(page, `${name} #${id}`).toContain(`id="${id}"`);
    for (const tool of ['curl', 'TypeScript', 'cast']) expect(page).toContain(`<figcaption>${tool}</figcaption>`);
    expect(page).toContain(`client.${name}(`);
    expect(page).toContain(`cast rpc --rpc-url http://127.0.0.1:8546 ${name}`);
  });

  it("lists debug_traceTransaction's differences from Anvil as items, not a paragraph", () => {
    const m = method('debug_traceTransaction');
    expect(m.differences.filter((d) => d.from === 'anvil').length).toBeGreaterThanOrEqual(6);
    expect(m.description!.split(/\s+/).length).toBeLessThan(60);
  });

  it('marks the recorded values Try it replaces from the live chain', () => {
    expect(liveValues(method('debug_traceTransaction'))).toEqual([{ path: [0], kind: 'transaction' }]);
    expect(liveValues(method('eth_getLogs'))).toEqual([{ path: [0, 'fromBlock'], kind: 'range-from' }]);
    expect(liveValues(method('eth_getBlockByHash'))).toEqual([{ path: [0], kind: 'block-hash' }]);
    expect(liveValues(method('web3_clientVersion'))).toEqual([]);
    expect(methodPage(model, method('eth_getLogs'))).toContain('data-live="');
  });
});

describe('search index', () => {
  it('holds every guide and every method', async () => {
    const guides = await Promise.all(
      GUIDES.map(async (guide) => ({
        guide,
        markdown: await readFile(join(repoRoot, 'codegen/docs/guides', `${guide.slug}.md`), 'utf8'),
      })),
    );
    const index = buildSearchIndex(model, guides);
    expect(index.filter((e) => e.kind === 'guide').map((e) => e.path)).toEqual(
      GUIDES.map((g) => `guides/${g.slug}.html`),
    );
    expect(index.filter((e) => e.kind === 'method').length).toBe(model.methods.length);
    expect(index.find((e) => e.path === 'guides/operating.html')?.keywords).toBeTruthy();
  });
});

describe('limits', () => {
  it('are listed on every page whose errors include a limit being reached', () => {
    const limitErrors = /network\.rpc\.|more than the limit|above the limit/;
    const missing = model.methods
      .filter((m) => m.errors.some((e) => limitErrors.test(e.message) && e.code !== -32000) && m.limits.length === 0)
      .map((m) => m.name);
    expect(missing).toEqual([]);
  });
});
