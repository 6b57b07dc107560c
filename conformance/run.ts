/**
 * `npm run conformance -- <folder or file>… [--url http://host:port] [--filter text] [--verbose]`
 *
 * Starts a test-mode node (or uses the one at --url), replays the vectors through its RPC, prints one line per
 * failing case with the first difference (--verbose: every passing case too, with the node's reason for each block
 * it refused as the vector expects), pass counts per folder, and ends with `N passed, N failed, N skipped`.
 * With no path it runs `../shared/vectors` beside the repository (override: SVC_VECTORS_DIR).
 *
 * `--bastion`: Cancun BlockchainTests replayed as transactions on an ETC_Bastion chain (Shanghai ones on ETC_Spiral)
 * and precompile vectors run against Bastion's precompiles (conformance/bastion-*.ts); one line per case, with what
 * its comparison left out. With no path it runs test/fixtures/bastion.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runConformance, type CaseOutcome } from './index.js';
import { startTestNode } from './node.js';

export const defaultVectorsDir = (): string =>
  process.env.SVC_VECTORS_DIR ?? fileURLToPath(new URL('../../shared/vectors', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string' },
    filter: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    bastion: { type: 'boolean', default: false },
  },
});
const bastionFixtures = fileURLToPath(new URL('../test/fixtures/bastion', import.meta.url));
const paths = positionals.length > 0 ? positionals : [values.bastion ? bastionFixtures : defaultVectorsDir()];
for (const p of paths) {
  if (!existsSync(p)) {
    console.error(`no such file or folder: ${p}`);
    process.exit(2);
  }
}

const node = values.url === undefined ? await startTestNode() : undefined;
// Interrupted: stop the node this run started before going.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void (node?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
}
const url = values.url ?? node!.url;
const skipReasons = new Map<string, number>();
const notes = new Map<string, number>();
const started = Date.now();
try {
  const summary = await runConformance({
    paths,
    url,
    ...(values.filter !== undefined ? { filter: values.filter } : {}),
    bastion: values.bastion,
    onOutcome: (o: CaseOutcome) => {
      if (o.status === 'failed') console.log(`FAIL ${o.id}: ${o.reason}`);
      else if (o.status === 'skipped') skipReasons.set(o.reason!, (skipReasons.get(o.reason!) ?? 0) + 1);
      if (o.note !== undefined) notes.set(o.note, (notes.get(o.note) ?? 0) + 1);
      if (o.status !== 'passed') return;
      if (o.leftOut !== undefined) console.log(`ok   ${o.id} (left out: ${o.leftOut.join('; ')})`);
      else if (values.verbose) {
        console.log(`ok   ${o.id}`);
        for (const r of o.rejections ?? []) console.log(`       refused ${r}`);
      }
    },
  });
  const folders = new Map<string, { passed: number; failed: number; skipped: number }>();
  for (const o of summary.outcomes) {
    const f = folders.get(o.folder) ?? { passed: 0, failed: 0, skipped: 0 };
    f[o.status]++;
    folders.set(o.folder, f);
  }
  console.log('');
  for (const [folder, f] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`${folder}: ${f.passed} passed, ${f.failed} failed, ${f.skipped} skipped`);
  }
  for (const [reason, n] of skipReasons) console.log(`skipped ${n}: ${reason}`);
  for (const [note, n] of notes) console.log(`passed ${n} with ${note}`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  console.log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  process.exitCode = summary.failed > 0 ? 1 : 0;
} finally {
  await node?.stop();
}
