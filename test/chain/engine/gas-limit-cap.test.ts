/**
 * The header rule "gas limit at most 2^63 − 1" on the paths blocks from outside take into the engine: a peer's
 * block arrives as RLP field lists (`decodeBlockValues`, as src/p2p does for NewBlock and synced bodies) or a
 * raw block (`decodeBlock`, as test_importRawBlock does), and both end in `Blockchain.importBlock`.
 */
import type { Block } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { BlockImportError } from '../../../src/chain/import/import-error.js';
import { MAX_GAS_LIMIT } from '../../../src/chain/rules/index.js';
import { mine, openDevChain, tempDir } from './fixtures.js';

const GAS_LIMIT_FIELD = 9;

let chain: Blockchain;
let dir: ReturnType<typeof tempDir>;
/** A valid next block, not imported: the tests import altered copies of it. */
let next: Block;

beforeAll(async () => {
  dir = tempDir('gas-limit-cap-');
  chain = await openDevChain(dir.dir);
  await mine(chain, []);
  const parent = chain.getHead();
  const assembled = await chain.assemble({
    transactions: [],
    coinbase: new Uint8Array(20).fill(0xcb),
    timestamp: parent.header.timestamp + 13n,
  });
  next = assembled.template;
});
afterAll(async () => {
  await chain?.close();
  dir?.remove();
});

/** The block's header field list with another gas limit (the hash changes with it; no seal is checked here). */
function headerWithGasLimit(block: Block, gasLimit: bigint): Uint8Array[] {
  const values = [...block.header.raw()];
  values[GAS_LIMIT_FIELD] = bigIntToUnpaddedBytes(gasLimit);
  return values;
}

async function importError(block: Block): Promise<BlockImportError> {
  const error = await chain.importBlock(block).then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof BlockImportError)) throw new Error(`expected a BlockImportError, got ${String(error)}`);
  return error;
}

describe('gas limit above 2^63 − 1', () => {
  it('a peer block (header and body field lists) is refused as an invalid header naming the rule', async () => {
    const head = chain.getHead().hash();
    const block = chain.decodeBlockValues(headerWithGasLimit(next, MAX_GAS_LIMIT + 1n), [], []);
    expect(block.header.gasLimit).toBe(2n ** 63n);
    const error = await importError(block);
    expect(error.failure).toBe('invalid-header');
    expect(error.message).toContain('gas-limit-above-max');
    expect(error.message).toContain('2^63 − 1');
    expect(chain.getHead().hash()).toEqual(head);
  });

  it('a raw block (as test_importRawBlock decodes it) is refused the same way', async () => {
    const rlp = RLP.encode([headerWithGasLimit(next, 2n ** 64n - 1n), [], []]);
    const error = await importError(chain.decodeBlock(rlp));
    expect(error.failure).toBe('invalid-header');
    expect(error.message).toMatch(/gas limit 18446744073709551615 exceeds the maximum 2\^63 − 1/);
  });

  it('the unaltered block imports: nothing else about it is wrong', async () => {
    const same = chain.decodeBlockValues(headerWithGasLimit(next, next.header.gasLimit), [], []);
    expect((await chain.importBlock(same)).status).toBe('head');
  });
});
