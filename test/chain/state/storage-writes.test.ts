/**
 * Block import writes a block's storage slots once, at the flush (one batch per account), not each SSTORE's
 * storage-trie path as it runs: after importing blocks of many SSTOREs, every trie node in the database belongs to
 * a state some block holds (none is a dead intermediate node of a half-written storage trie).
 */
import { createMPT } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import type { Block } from '@ethereumjs/block';
import { bytesToHex, bytesToUnprefixedHex, concatBytes, KECCAK256_NULL, setLengthLeft } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { ChainDB } from '../../../src/chain/db/chain-db.js';
import { keys as dbKeys, Tag } from '../../../src/chain/db/keys.js';
import { readOnlyTrieDb } from './read-only-trie-db.js';
import { mine, openDevChain, signedTx, tempDir } from '../engine/fixtures.js';

/** Runtime: n = calldata[0]; while n > 0 { SSTORE(n, n + calldata[32]); n-- }. */
const RUNTIME = Uint8Array.from([
  ...[0x60, 0x00, 0x35], // n = CALLDATALOAD(0)
  0x5b, // 0x03 loop:
  ...[0x80, 0x15, 0x60, 0x17, 0x57], // if n == 0 goto end
  ...[0x60, 0x20, 0x35, 0x81, 0x01, 0x81, 0x55], // SSTORE(n, n + CALLDATALOAD(32))
  ...[0x60, 0x01, 0x90, 0x03], // n -= 1
  ...[0x60, 0x03, 0x56], // goto loop
  ...[0x5b, 0x00], // 0x17 end: STOP
]);
/** Init code: returns RUNTIME, which follows it. */
const INIT = Uint8Array.from([0x60, RUNTIME.length, 0x80, 0x60, 0x0b, 0x60, 0x00, 0x39, 0x60, 0x00, 0xf3]);

const word = (n: number) => setLengthLeft(Uint8Array.of(n >> 8, n & 255), 32);

/** Every 'S' key (trie nodes and code) reachable from `roots`, by walking each state's account and storage tries. */
async function reachableKeys(db: ChainDB, roots: Uint8Array[]): Promise<Set<string>> {
  const reached = new Set<string>();
  const trieDb = readOnlyTrieDb((key) => {
    const value = db.getSync(dbKeys.state(Buffer.from(key, 'hex')));
    if (value !== undefined) reached.add(key);
    return value;
  });
  for (const root of roots) {
    reached.add(bytesToUnprefixedHex(root));
    const trie = await createMPT({ db: trieDb, root, useKeyHashing: true });
    const storageRoots: Uint8Array[] = [];
    await trie.walkAllValueNodes(async (node) => {
      const [, , storageRoot, codeHash] = RLP.decode(node.value() as Uint8Array) as Uint8Array[];
      storageRoots.push(storageRoot!);
      if (bytesToHex(codeHash!) !== bytesToHex(KECCAK256_NULL))
        reached.add(bytesToUnprefixedHex(concatBytes(Uint8Array.of(0x63), codeHash!)));
    });
    for (const storageRoot of storageRoots) {
      reached.add(bytesToUnprefixedHex(storageRoot));
      const storage = await createMPT({ db: trieDb, root: storageRoot, useKeyHashing: true });
      await storage.walkAllValueNodes(async () => undefined);
    }
  }
  return reached;
}

async function storedKeys(db: ChainDB): Promise<string[]> {
  const it = db.keys({ gte: Uint8Array.of(Tag.state), lt: Uint8Array.of(Tag.state + 1) });
  const found: string[] = [];
  for (let chunk = await it.nextv(1000); chunk.length > 0; chunk = await it.nextv(1000))
    for (const key of chunk) found.push(bytesToUnprefixedHex(key.subarray(1)));
  await it.close();
  return found;
}

describe('block import of many SSTOREs', () => {
  it('leaves no trie node that no block state refers to', async () => {
    const producer = tempDir('sstore-producer-');
    const importer = tempDir('sstore-importer-');
    try {
      const blocks: Block[] = [];
      const source = await openDevChain(producer.dir);
      try {
        const deployed = await mine(source, [
          signedTx(source, { from: 0, nonce: 0n, data: concatBytes(INIT, RUNTIME), gasLimit: 200_000n }),
        ]);
        const contract = deployed.assembled.receipts[0]!.contractAddress!;
        blocks.push(deployed.block);
        const call = (from: number, nonce: bigint, n: number, add: number) =>
          signedTx(source, { from, nonce, to: contract, data: concatBytes(word(n), word(add)), gasLimit: 9_000_000n });
        // Fresh slots, then two transactions of one block: the second rewrites them and adds more.
        blocks.push((await mine(source, [call(0, 1n, 300, 0)])).block);
        blocks.push((await mine(source, [call(0, 2n, 200, 1), call(1, 0n, 350, 2)])).block);
        for (const b of blocks.slice(1))
          expect((await source.getReceipts(b.hash()))?.every((r) => r.status === 1)).toBe(true);
      } finally {
        await source.close();
      }

      const chain = await openDevChain(importer.dir);
      const roots = [chain.getGenesis().header.stateRoot];
      try {
        for (const block of blocks) {
          const result = await chain.importBlock(chain.decodeBlock(block.serialize()));
          expect(result.status).toBe('head');
          roots.push(block.header.stateRoot);
        }
        expect(bytesToHex(chain.getHead().hash())).toBe(bytesToHex(blocks.at(-1)!.hash()));
      } finally {
        await chain.close();
      }

      const db = await ChainDB.open(`${importer.dir}/chaindata`);
      try {
        const reached = await reachableKeys(db, roots);
        const stored = await storedKeys(db);
        const dead = stored.filter((key) => !reached.has(key));
        expect(stored.length).toBeGreaterThan(300);
        expect({ stored: stored.length, dead: dead.length }).toEqual({ stored: stored.length, dead: 0 });
      } finally {
        await db.close();
      }
    } finally {
      producer.remove();
      importer.remove();
    }
  }, 60_000);
});
