/**
 * "State not held" over JSON-RPC: a datadir whose chain records a snap-sync base (block 2) answers every state
 * read of an earlier block with -32000 and the message naming both blocks, and reads at or above the base as
 * before. The datadir is built by the engine in this process, then served by a node process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WriteBatch, type ChainDB } from '../../src/chain/db/chain-db.js';
import { writeSnapBase } from '../../src/chain/state/snap-base.js';
import { addresses, mine, openDevChain, signedTx } from '../chain/engine/fixtures.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';
import { post } from '../helpers/rpc.js';

const TO = `0x${'42'.repeat(20)}`;
const ZERO32 = `0x${'00'.repeat(32)}`;
const NOT_HELD = 'state of block 1 is not held: this node was snap-synced at block 2';

describe('state reads below the snap-sync base', () => {
  const datadir = mkdtempSync(join(tmpdir(), 'state-not-held-'));
  let node: NodeProcess;
  let block1Hash: string;
  let block2Hash: string;
  let block2Tx: string;

  beforeAll(async () => {
    const chain = await openDevChain(datadir);
    const hashes: Uint8Array[] = [];
    const txs: Uint8Array[] = [];
    for (let n = 0n; n < 3n; n++) {
      const to = Uint8Array.from(Buffer.from(TO.slice(2), 'hex'));
      const { block } = await mine(chain, [signedTx(chain, { from: 0, nonce: n, to, value: 1n })]);
      hashes.push(block.hash());
      txs.push(block.transactions[0]!.hash());
    }
    const batch = new WriteBatch();
    writeSnapBase(batch, { number: 2n, hash: hashes[1]! });
    await (chain as unknown as { db: ChainDB }).db.write(batch);
    await chain.close();
    block1Hash = bytesToHex(hashes[0]!);
    block2Hash = bytesToHex(hashes[1]!);
    block2Tx = bytesToHex(txs[1]!);
    node = await startNode({ args: ['--datadir', datadir, '--no-p2p', '--seal', 'ethash', '--no-mine'] });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    rmSync(datadir, { recursive: true, force: true });
  });

  const call = async (method: string, params: unknown[]) =>
    (await post(node.url, { jsonrpc: '2.0', id: 1, method, params })).body;

  it('answers -32000 with the not-held message for every kind of state read of block 1', async () => {
    const from = bytesToHex(addresses[1]!);
    const reads: [string, unknown[]][] = [
      ['eth_getBalance', [TO, '0x1']],
      ['eth_getCode', [TO, '0x1']],
      ['eth_getStorageAt', [TO, '0x0', '0x1']],
      ['eth_getTransactionCount', [TO, '0x1']],
      ['eth_getProof', [TO, [], '0x1']],
      ['eth_getBalance', [TO, { blockHash: block1Hash }]],
      ['eth_call', [{ from, to: TO }, '0x1']],
      ['eth_estimateGas', [{ from, to: TO, value: '0x1' }, '0x1']],
      ['debug_accountRange', ['0x1', 0, ZERO32, 1]],
      ['debug_storageRangeAt', [block1Hash, 0, TO, ZERO32, 1]],
      // A trace of the base block replays it on its parent's state, which is the one not held.
      ['debug_traceBlockByNumber', ['0x2']],
      ['debug_traceBlockByHash', [block2Hash]],
      ['debug_traceTransaction', [block2Tx]],
      ['debug_traceCall', [{ from, to: TO }, '0x1']],
      ['trace_block', ['0x2']],
      ['trace_transaction', [block2Tx]],
    ];
    for (const [method, params] of reads) {
      const body = await call(method, params);
      expect({ method, error: body.error }).toEqual({ method, error: { code: -32000, message: NOT_HELD } });
    }
  });

  it('reads the base block and later ones as before', async () => {
    expect((await call('eth_getBalance', [TO, '0x2'])).result).toBe('0x2');
    expect((await call('eth_getBalance', [TO, 'latest'])).result).toBe('0x3');
    expect((await call('eth_call', [{ to: TO }, '0x2'])).result).toBe('0x');
    expect((await call('debug_traceBlockByNumber', ['0x3'])).result).toHaveLength(1);
  });
});
