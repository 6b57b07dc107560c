/**
 * Screenshots of the docs portal as a dev node serves it: the front page, the getting-started guide and one method
 * page with "Try it" answered by the node. For release notes and issue notes; not part of the tests.
 *
 *   npx tsx scripts/portal-screenshots.ts [out-dir]      (default: ./screenshots; needs /usr/bin/chromium)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { startNode } from '../test/helpers/node-process.js';

const out = resolve(process.argv[2] ?? 'screenshots');
mkdirSync(out, { recursive: true });
const node = await startNode({ args: ['--no-p2p'] });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const shots: Array<[string, string]> = [
    ['portal-front-page.png', 'docs/'],
    ['portal-guide-getting-started.png', 'docs/guides/getting-started.html'],
    ['portal-method-eth_getBalance.png', 'docs/methods/eth_getBalance.html'],
  ];
  for (const [file, path] of shots) {
    await page.goto(new URL(path, node.url).href, { waitUntil: 'networkidle' });
    const tryIt = page.getByRole('button', { name: /try it/i }).first();
    if (path.includes('methods/') && (await tryIt.count()) > 0) {
      await tryIt.click();
      await page.waitForTimeout(500);
      // The click scrolled down; the sticky sidebar would be drawn where that scroll left it.
      await page.evaluate('window.scrollTo(0, 0)');
    }
    await page.screenshot({ path: join(out, file), fullPage: path.includes('methods/') });
    console.log(join(out, file));
  }
} finally {
  await browser.close();
  await node.stop();
}
