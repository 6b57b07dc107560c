import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Block } from '@ethereumjs/block';
import { bytesToHex, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { BlockStore } from '../../../src/chain/db/block-store.js';
import { BlockImportError } from '../../../src/chain/import/import-error.js';
import type { ReorgEvent } from '../../../src/chain/view/chain-events.js';
import { genesisBlockOf } from '../../../src/chain/genesis/header.js';
import { DEV_ACCOUNT_BALANCE, dev } from '../../../src/chain/networks/index.js';
import { compiledChild } from '../../helpers/compiled-child.js';
import { addresses, mine, openDevChain, signedTx, tempDir } from './fixtures.js';

const ETHER = 10n ** 18n;
const word = (n: bigint) => setLengthLeft(bigIntToBytes(n), 32);
// Runtime: store calldata word in slot 0, LOG0 it, return it. Init: slot 1 = 42, then deploy the runtime.
const RUNTIME = '6000358060005560005260206000a060206000f3';
const INIT = `602a60015560146011600039` + `60146000f3` + RUNTIME;
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const getNumber = BlockStore.prototype.getNumber;

describe('chain engine', () => {
  const dirA = tempDir();
  const dirB = tempDir();
  const dirC = tempDir();
  let a: Blockchain;
  const blocksA: Block[] = [];
  let contract: Uint8Array;
  const fresh = randomBytes(20);

  beforeAll(async () => {
    a = await openDevChain(dirA.dir);
  });
  afterAll(async () => {
    await a?.close();
    dirA.remove();
    dirB.remove();
    dirC.remove();
  });

  it('initialises from the dev genesis', async () => {
    const genesis = await genesisBlockOf(dev);
    expect(a.getHead().header.number).toBe(0n);
    expect(bytesToHex(a.getHead().hash())).toBe(bytesToHex(genesis.hash));
    expect(await (await a.stateAt('latest'))!.getBalance(addresses[0])).toBe(DEV_ACCOUNT_BALANCE);
    expect(a.getHeadTotalDifficulty()).toBe(genesis.block.header.difficulty);
  });

  it('assembles, seals and imports blocks with transfers, a deploy and a call', async () => {
    const t1 = signedTx(a, { from: 0, nonce: 0n, to: addresses[5], value: 3n * ETHER });
    const t2 = signedTx(a, { from: 1, nonce: 0n, to: fresh, value: 7n });
    const tooHighNonce = signedTx(a, { from: 2, nonce: 5n, to: fresh, value: 1n });
    const b1 = await mine(a, [t1, t2, tooHighNonce]);
    expect(b1.result.status).toBe('head');
    expect(b1.assembled.transactions).toHaveLength(2);
    expect(b1.assembled.rejected.map((r) => r.reason)).toEqual([expect.stringMatching(/nonce/i)]);
    blocksA.push(b1.block);

    const deploy = signedTx(a, { from: 0, nonce: 1n, data: hex(INIT), gasLimit: 200_000n });
    const b2 = await mine(a, [deploy]);
    blocksA.push(b2.block);
    const receipt = (await a.getReceipts(b2.block.hash()))![0];
    expect(receipt.status).toBe(1);
    contract = receipt.contractAddress!;
    expect(bytesToHex(await (await a.stateAt('latest'))!.getCode(contract))).toBe(`0x${RUNTIME}`);

    const call = (await a.call('latest', { to: contract, data: word(7n) }))!;
    expect(call.reverted).toBe(false);
    expect(call.returnData).toEqual(word(7n));
    expect(call.gasUsed).toBeGreaterThan(21_000n);

    const set = signedTx(a, { from: 0, nonce: 2n, to: contract, data: word(99n), gasLimit: 100_000n });
    const b3 = await mine(a, [set]);
    blocksA.push(b3.block);
    const [r3] = (await a.getReceipts(b3.block.hash()))!;
    expect(r3.logs).toHaveLength(1);
    expect(r3.logs[0].address).toEqual(contract);
    expect(r3.logs[0].data).toEqual(word(99n));
    expect(r3.cumulativeGasUsed).toBe(b3.block.header.gasUsed);

    const state = (await a.stateAt('latest'))!;
    expect(await state.getStorageAt(contract, word(0n))).toEqual(word(99n));
    expect(await state.getStorageAt(contract, word(1n))).toEqual(word(42n));
    expect(await state.getBalance(fresh)).toBe(7n);
    const lookup = (await a.getTransaction(t2.hash()))!;
    expect(lookup.block.header.number).toBe(1n);
    expect(lookup.index).toBe(1);
    expect(lookup.receipt.from).toEqual(addresses[1]);
  });

  it('reads historical state at older blocks', async () => {
    const before = (await a.stateAt(0n))!;
    const after1 = (await a.stateAt(1n))!;
    expect(await before.getBalance(addresses[5])).toBe(DEV_ACCOUNT_BALANCE);
    expect(await after1.getBalance(addresses[5])).toBe(DEV_ACCOUNT_BALANCE + 3n * ETHER);
    expect(await (await a.stateAt(2n))!.getStorageAt(contract, word(0n))).toEqual(word(0n));
    const proof = await (await a.stateAt(1n))!.getProof(fresh, []);
    expect(proof.balance).toBe(7n);
    expect(proof.accountProof.length).toBeGreaterThan(0);
  });

  it('imports the same blocks into a second chain, which re-executes them', async () => {
    const b = await openDevChain(dirB.dir);
    try {
      for (const block of blocksA) {
        const result = await b.importBlock(b.decodeBlock(block.serialize()));
        expect(result.status).toBe('head');
      }
      expect(b.getHead().hash()).toEqual(a.getHead().hash());
      expect(await b.getReceipts(blocksA[2].hash())).toEqual(await a.getReceipts(blocksA[2].hash()));
      expect((await b.importBlock(blocksA[0])).status).toBe('known');
    } finally {
      await b.close();
    }
  });

  it('refuses blocks with a wrong state root or an unknown parent', async () => {
    const b = await openDevChain(dirB.dir);
    try {
      const good = await b.assemble({
        transactions: [],
        coinbase: addresses[3],
        timestamp: b.getHead().header.timestamp + 5n,
      });
      const raw = good.template.raw();
      raw[0][3] = new Uint8Array(32).fill(1); // stateRoot
      await expect(b.importBlock(b.decodeBlock(encodeRaw(raw)))).rejects.toMatchObject({ failure: 'invalid-state' });
      const orphan = good.template.raw();
      orphan[0][0] = new Uint8Array(32).fill(2); // parentHash
      const err = await b.importBlock(b.decodeBlock(encodeRaw(orphan))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BlockImportError);
      expect((err as BlockImportError).failure).toBe('unknown-parent');
      expect(b.getHead().hash()).toEqual(a.getHead().hash());
    } finally {
      await b.close();
    }
  });

  it('reorganises to a heavier side chain: canonical index, tx lookups, head and events', async () => {
    const c = await openDevChain(dirC.dir);
    const side: Block[] = [];
    const shared = signedTx(c, { from: 1, nonce: 0n, to: fresh, value: 7n }); // same tx as in A's block 1
    const onlySide = signedTx(c, { from: 4, nonce: 0n, to: addresses[6], value: ETHER });
    try {
      side.push((await mine(c, [shared], { coinbase: addresses[9] })).block);
      side.push((await mine(c, [onlySide], { coinbase: addresses[9] })).block);
      side.push((await mine(c, [], { coinbase: addresses[9] })).block);
      side.push((await mine(c, [], { coinbase: addresses[9] })).block);
    } finally {
      await c.close();
    }
    // Looked up before the reorg too: a location remembered then (block-store.ts) must not outlive it.
    expect((await a.getTransaction(shared.hash()))!.block.hash()).toEqual(blocksA[0].hash());
    expect(await a.getTransaction(blocksA[0].transactions[0].hash())).toBeDefined();
    const reorgs: ReorgEvent[] = [];
    const heads: Block[] = [];
    a.on('reorg', (e) => reorgs.push(e));
    a.on('newHead', (blk) => heads.push(blk));

    for (const block of side.slice(0, 3))
      expect((await a.importBlock(a.decodeBlock(block.serialize()))).status).toBe('side');
    expect(a.getHead().hash()).toEqual(blocksA[2].hash());
    const result = await a.importBlock(a.decodeBlock(side[3].serialize()));
    expect(result.status).toBe('head');

    expect(a.getHead().hash()).toEqual(side[3].hash());
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0].dropped.map((blk) => blk.header.number)).toEqual([3n, 2n, 1n]);
    expect(reorgs[0].added.map((blk) => bytesToHex(blk.hash()))).toEqual(side.map((blk) => bytesToHex(blk.hash())));
    expect(reorgs[0].commonAncestor.header.number).toBe(0n);
    expect(heads.map((blk) => blk.header.number)).toEqual([4n]);
    for (let n = 1n; n <= 4n; n++) expect(await a.getCanonicalHash(n)).toEqual(side[Number(n) - 1].hash());
    expect(await a.isCanonical(blocksA[0].hash())).toBe(false);
    expect(await a.getBlock(blocksA[0].hash())).toBeDefined(); // still stored, as a side block

    expect((await a.getTransaction(shared.hash()))!.block.hash()).toEqual(side[0].hash());
    expect((await a.getTransaction(onlySide.hash()))!.block.header.number).toBe(2n);
    expect(await a.getTransaction(blocksA[0].transactions[0].hash())).toBeUndefined();
    const state = (await a.stateAt('latest'))!;
    expect(await state.getCode(contract)).toHaveLength(0);
    expect(await state.getBalance(addresses[6])).toBe(DEV_ACCOUNT_BALANCE + ETHER);
  });

  it('keeps head, balances, receipts and tx lookups across a restart', async () => {
    const head = a.getHead();
    const txHash = head.header.number >= 2n ? (await a.getBlock(2n))!.transactions[0].hash() : new Uint8Array();
    await a.close();
    a = await openDevChain(dirA.dir);
    expect(a.getHead().hash()).toEqual(head.hash());
    expect((await a.getTransaction(txHash))!.block.header.number).toBe(2n);
    expect((await a.getReceipts((await a.getBlock(2n))!.hash()))![0].status).toBe(1);
    expect(await (await a.stateAt('latest'))!.getBalance(addresses[6])).toBe(DEV_ACCOUNT_BALANCE + ETHER);
    // And it keeps building on the restored head.
    const next = await mine(a, [signedTx(a, { from: 7, nonce: 0n, to: fresh, value: 1n })]);
    expect(next.result.status).toBe('head');
    expect(a.getHead().header.number).toBe(5n);
  });

  it('rewinds to an older block, leaving the later ones as a side chain', async () => {
    const tip = a.getHead();
    await a.rewindTo(2n);
    expect(a.getHead().header.number).toBe(2n);
    expect(await a.getCanonicalHash(3n)).toBeUndefined();
    expect(await a.getBlock(tip.hash())).toBeDefined();

    // Importing the old tip again (e.g. re-mining the same block after test_rewindToBlock) restores it as the head.
    const again = await a.importBlock(tip);
    expect(again.status).toBe('head');
    expect(a.getHead().hash()).toEqual(tip.hash());
    expect(await a.getCanonicalHash(3n)).toBeDefined();
  });

  it('refuses a database made for another genesis', async () => {
    const other = { ...dev, genesis: { ...dev.genesis, header: { ...dev.genesis.header, timestamp: 1n } } };
    const { Blockchain } = await import('../../../src/chain/blockchain/blockchain.js');
    const { engineNetworkOf, etcEngineRules } = await import('../../../src/chain/engine/engine-adapters.js');
    await expect(
      Blockchain.open({
        dataDir: dirB.dir,
        network: engineNetworkOf(other),
        rules: etcEngineRules(other),
        noProof: true,
      }),
    ).rejects.toThrow(
      /belongs to a chain with genesis 0x[0-9a-f]{64}, not dev .*: start it with the --network it was made with, or give this node another --datadir$/,
    );
  });
});

describe('the "is it stored?" read on importing a block this chain assembled', () => {
  it('is skipped on a head this chain just stored, and kept after a rewind, where the same block is mined again', async () => {
    const dir = tempDir('engine-stored-read-');
    const chain = await openDevChain(dir.dir);
    const asked: string[] = [];
    const spy = vi.spyOn(BlockStore.prototype, 'getNumber').mockImplementation(function (this: BlockStore, hash) {
      asked.push(bytesToHex(hash));
      return getNumber.call(this, hash);
    });
    const readFor = async (mined: Promise<Awaited<ReturnType<typeof mine>>>) => {
      asked.length = 0;
      const { block, result } = await mined;
      return { block, status: result.status, read: asked.includes(bytesToHex(block.hash())) };
    };
    try {
      // The first block after opening reads: the importer has not stored the head itself.
      expect(await readFor(mine(chain, []))).toMatchObject({ status: 'head', read: true });
      const b2 = await readFor(mine(chain, [signedTx(chain, { from: 0, nonce: 0n, to: addresses[1], value: 1n })]));
      const b3 = await readFor(mine(chain, []));
      expect([b2, b3]).toMatchObject([
        { status: 'head', read: false },
        { status: 'head', read: false },
      ]);

      // After a rewind (evm_revert) the same parent, transactions and timestamps give byte-identical blocks,
      // stored already: each must be found so, and made the head again from the store.
      await chain.rewindTo(1n);
      const again2 = await readFor(mine(chain, [signedTx(chain, { from: 0, nonce: 0n, to: addresses[1], value: 1n })]));
      const again3 = await readFor(mine(chain, []));
      expect(bytesToHex(again2.block.hash())).toBe(bytesToHex(b2.block.hash()));
      expect(bytesToHex(again3.block.hash())).toBe(bytesToHex(b3.block.hash()));
      expect([again2, again3]).toMatchObject([
        { status: 'head', read: true },
        { status: 'head', read: true },
      ]);
      // A new block on the restored head is new: the read is skipped again only once this chain stored a head.
      const b4 = await readFor(mine(chain, []));
      const b5 = await readFor(mine(chain, []));
      expect([b4, b5]).toMatchObject([
        { status: 'head', read: true },
        { status: 'head', read: false },
      ]);
      expect(chain.getHead().header.number).toBe(5n);
      expect(await chain.getCanonicalHash(3n)).toEqual(b3.block.hash());
    } finally {
      spy.mockRestore();
      await chain.close();
      dir.remove();
    }
  });

  it('is skipped after a bulk run of empty blocks on such a head, and kept after a run on a rewound head', async () => {
    const dir = tempDir('engine-stored-read-bulk-');
    const chain = await openDevChain(dir.dir);
    const asked: string[] = [];
    const spy = vi.spyOn(BlockStore.prototype, 'getNumber').mockImplementation(function (this: BlockStore, hash) {
      asked.push(bytesToHex(hash));
      return getNumber.call(this, hash);
    });
    const readFor = async (mined: Promise<Awaited<ReturnType<typeof mine>>>) => {
      asked.length = 0;
      const { block, result } = await mined;
      return { block, status: result.status, read: asked.includes(bytesToHex(block.hash())) };
    };
    // Fixed timestamps: the run after the rewind makes the very blocks stored before.
    const bulk = (count: number) => {
      let timestamp = chain.getHead().header.timestamp;
      return chain.extendHead({
        count,
        coinbase: new Uint8Array(20).fill(0xcb),
        timestamp: () => (timestamp += 13n),
        seal: async (assembled) => assembled.seal(new Uint8Array(8), new Uint8Array(32)),
      });
    };
    try {
      await mine(chain, []);
      // Block 1 was stored as new by the importer: the run's blocks and then its last block are new too.
      await bulk(3);
      const b5 = await readFor(mine(chain, [signedTx(chain, { from: 0, nonce: 0n, to: addresses[1], value: 1n })]));
      expect(b5).toMatchObject({ status: 'head', read: false });
      await bulk(2);
      expect(await readFor(mine(chain, []))).toMatchObject({ status: 'head', read: false });

      // After a rewind the run remakes stored blocks (and block 5 on them): the next block must be looked up.
      await chain.rewindTo(1n);
      await bulk(3);
      const again5 = await readFor(mine(chain, [signedTx(chain, { from: 0, nonce: 0n, to: addresses[1], value: 1n })]));
      expect(bytesToHex(again5.block.hash())).toBe(bytesToHex(b5.block.hash()));
      expect(again5).toMatchObject({ status: 'head', read: true });
      expect(chain.getHead().header.number).toBe(5n);
    } finally {
      spy.mockRestore();
      await chain.close();
      dir.remove();
    }
  });
});

describe('crash safety', () => {
  it('reopens on a consistent head after SIGKILL during imports', async () => {
    const dir = tempDir('engine-crash-');
    try {
      const child = spawn(
        process.execPath,
        [await compiledChild(new URL('./crash-child.ts', import.meta.url)), dir.dir],
        {
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let reported = 0n;
      await new Promise<void>((resolve, reject) => {
        child.on('exit', (code) => reject(new Error(`child exited early (${code})`)));
        child.stdout.on('data', (chunk: Buffer) => {
          for (const m of chunk.toString().matchAll(/stored (\d+)/g)) reported = BigInt(m[1]);
          // Kill at an arbitrary moment while it is busy with later blocks.
          if (reported >= 4n)
            setTimeout(() => {
              child.removeAllListeners('exit');
              child.kill('SIGKILL');
              child.on('exit', () => resolve());
            }, 37);
        });
      });
      const chain = await openDevChain(dir.dir);
      try {
        const head = chain.getHead();
        expect(head.header.number).toBeGreaterThanOrEqual(reported);
        const state = (await chain.stateAt('latest'))!;
        const spent = DEV_ACCOUNT_BALANCE - (await state.getBalance(addresses[0]));
        expect(spent).toBeGreaterThan(0n);
        expect(await state.getNonce(addresses[0])).toBe(200n * head.header.number);
        expect((await chain.getReceipts(head.hash()))!).toHaveLength(200);
        const next = await mine(chain, []);
        expect(next.result.status).toBe('head');
      } finally {
        await chain.close();
      }
    } finally {
      dir.remove();
    }
  });
});

function encodeRaw(raw: ReturnType<Block['raw']>): Uint8Array {
  // Local import keeps the helper next to its only use.
  return RLPencode(raw);
}
import { RLP } from '@ethereumjs/rlp';
const RLPencode = (x: unknown) => RLP.encode(x as Parameters<typeof RLP.encode>[0]);
