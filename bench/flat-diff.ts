/**
 * `npx tsx bench/flat-diff.ts [--blocks 40] [--txs 200] [--accounts 2000]`: what keeping the flat state costs per
 * block (state/flat-table.ts: the trie diff staged into each head move's batch). A dev chain is seeded with
 * `accounts` accounts (one state edit), then `blocks` blocks of `txs` transfers each to fresh addresses are mined;
 * prints the median and p95 of the diff's time per block and its share of the block's import, and the same for one
 * block of 1,000 storage writes. Nothing is kept.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Address, createAccount } from '@ethereumjs/util';
import { FlatTable } from '../src/chain/state/flat-table.js';
import { mine, openDevChain, signedTx, tempDir } from '../test/chain/engine/fixtures.js';

const { values } = parseArgs({
  options: {
    blocks: { type: 'string', default: '40' },
    txs: { type: 'string', default: '200' },
    accounts: { type: 'string', default: '2000' },
  },
});

let diffMs = 0;
const proto = FlatTable.prototype as unknown as { stageDiff: (...args: unknown[]) => unknown };
const stageDiff = proto.stageDiff;
proto.stageDiff = function (this: unknown, ...args: unknown[]) {
  const t = performance.now();
  try {
    return stageDiff.apply(this, args);
  } finally {
    diffMs += performance.now() - t;
  }
};

const tmp = tempDir('flat-diff-');
const chain = await openDevChain(tmp.dir);
try {
  await chain.editHeadState(async (state) => {
    for (let i = 0; i < Number(values.accounts); i++)
      await state.putAccount(new Address(randomBytes(20)), createAccount({ balance: 1n }));
  });
  let nonce = 0n;
  const perBlock: { diff: number; block: number }[] = [];
  for (let b = 0; b < Number(values.blocks); b++) {
    const txs = Array.from({ length: Number(values.txs) }, () =>
      signedTx(chain, { from: 0, nonce: nonce++, to: randomBytes(20), value: 1n }),
    );
    diffMs = 0;
    const t = performance.now();
    await mine(chain, txs);
    perBlock.push({ diff: diffMs, block: performance.now() - t });
  }
  const sorted = perBlock.map((p) => p.diff).sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  const blocks = perBlock.map((p) => p.block).sort((a, b) => a - b);
  const blockMedian = blocks[blocks.length >> 1];
  console.log(
    `transfers: ${values.txs}/block over ${values.accounts} accounts: diff median ${median.toFixed(2)} ms, p95 ` +
      `${sorted[Math.floor(sorted.length * 0.95)].toFixed(2)} ms; block (assemble + import) median ` +
      `${blockMedian.toFixed(1)} ms (${((median / blockMedian) * 100).toFixed(1)} %)`,
  );
  // One state edit writing 1,000 slots of one account: a storage-heavy move.
  diffMs = 0;
  const target = new Address(randomBytes(20));
  await chain.editHeadState(async (state) => {
    await state.putAccount(target, createAccount({ balance: 1n }));
    for (let i = 0; i < 1000; i++) await state.putStorage(target, randomBytes(32), Uint8Array.of(1 + (i % 200)));
  });
  console.log(`1,000 storage writes in one move: diff ${diffMs.toFixed(1)} ms`);
} finally {
  await chain.close();
  tmp.remove();
}
