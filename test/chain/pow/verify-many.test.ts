/**
 * Batch seal checks on the worker pool (Ethash.verifyMany): real ETC headers and uncles from era1 epoch 0 pass,
 * tampered ones fail with the reason, one verdict per header in the batch's order, the same as one-by-one checks.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlockHeader, createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { afterAll, describe, expect, it } from 'vitest';
import { Era1File } from '../../../src/chain/archive/era1.js';
import { getNetwork } from '../../../src/chain/networks/index.js';
import { cacheSize } from '../../../src/chain/pow/epoch.js';
import { Ethash } from '../../../src/chain/pow/ethash.js';
import { ethashNative } from '../../../src/chain/pow/ethash-native.js';
import { evmRulesAt } from '../../../src/chain/rules/evmRules.js';
import { ERA1_EPOCH0 } from '../../helpers/vectors-dir.js';

const ERA1 = ERA1_EPOCH0;
const etc = getNetwork('etc');
const pow = await Ethash.create({
  params: { ecip1099Block: 11_700_000n },
  cacheDir: join(tmpdir(), 'svc-node-test-ethash'),
  sealWorkers: 2,
});
afterAll(() => pow.close());

/** Headers and uncles of blocks 1..`last` (the uncles right after their block's header). */
async function realHeaders(last: number): Promise<BlockHeader[]> {
  const era = await Era1File.open(ERA1);
  const out: BlockHeader[] = [];
  try {
    for await (const b of era.blocks(1n)) {
      if (b.number > BigInt(last)) break;
      const common = evmRulesAt(etc, b.number);
      out.push(createBlockHeaderFromBytesArray(RLP.decode(b.header) as Uint8Array[], { common }));
      const [, uncles] = RLP.decode(b.body) as Uint8Array[][][];
      for (const u of uncles) out.push(createBlockHeaderFromBytesArray(u, { common }));
    }
  } finally {
    await era.close();
  }
  return out;
}

function tampered(h: BlockHeader, field: 'nonce' | 'mixHash'): BlockHeader {
  const raw = h.raw();
  raw[field === 'nonce' ? 14 : 13] = new Uint8Array(field === 'nonce' ? 8 : 32).fill(9);
  return createBlockHeaderFromBytesArray(raw, { common: h.common });
}

describe('Ethash.verifyMany: seals checked on worker threads', () => {
  it('passes real headers and uncles and names the tampered ones, in order, as one-by-one checks do', async () => {
    const headers = await realHeaders(60);
    expect(headers.length).toBeGreaterThan(60); // some uncles among them
    const batch = [...headers];
    batch[5] = tampered(headers[5], 'nonce');
    batch[17] = tampered(headers[17], 'mixHash');
    const verdicts = await pow.verifyMany(batch);
    expect(verdicts).toHaveLength(batch.length);
    verdicts.forEach((v, i) => {
      if (i === 5 || i === 17) expect(v).toBe('invalid mix digest');
      else expect(v).toBe(true);
    });
    const oneByOne = await Promise.all([batch[4], batch[5], batch[17]].map((h) => pow.verify(h)));
    expect(oneByOne).toEqual([true, 'invalid mix digest', 'invalid mix digest']);
    // The main thread and both workers hashed epoch 0 natively (where the add-on builds) over one copy of its cache.
    const native = ethashNative();
    if (native !== undefined) expect(native.copies(cacheSize(0))).toBe(1);
  }, 60_000);

  it('an empty batch is an empty answer', async () => {
    expect(await pow.verifyMany([])).toEqual([]);
  });
});
