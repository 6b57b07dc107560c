/**
 * An in-memory chain of synthetic blocks and receipts for log and filter tests: real blooms (the
 * engine's `logsBloomOf`), hashes derived from content, side chains, and a canonical index that a
 * test moves by hand to simulate reorganisations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Level } from 'level';
import { keccak256 } from '../../../src/chain/base/crypto.js';
import { combineBlooms, logsBloomOf } from '../../../src/chain/codec/receipts.js';
import { indexWrites } from '../../../src/chain/logs/log-index.js';
import type {
  BlockReceipts,
  LogBlockHeader,
  LogSource,
  ReceiptLog,
  ReceiptWithLogs,
} from '../../../src/chain/logs/types.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A fixed 20-byte address or 32-byte topic from a small number, readable in failures. */
export const addr = (n: number): Uint8Array =>
  new Uint8Array(20).fill(0).map((_, i) => (i === 19 ? n : i === 0 ? 0xaa : 0));
export const topic = (n: number): Uint8Array => new Uint8Array(32).map((_, i) => (i === 31 ? n : i === 0 ? 0x70 : 0));
export const log = (address: number, topics: number[], data = Uint8Array.of(address)): ReceiptLog => ({
  address: addr(address),
  topics: topics.map(topic),
  data,
});

/** A block as the engine's events carry it (the shape FilterManager and indexWrites read). */
export class SyntheticBlock {
  readonly header: LogBlockHeader;
  constructor(
    header: LogBlockHeader,
    readonly transactionHashes: readonly Uint8Array[],
    readonly receipts: readonly ReceiptWithLogs[],
  ) {
    this.header = header;
  }
  hash(): Uint8Array {
    return this.header.hash;
  }
}

export class SyntheticChain implements LogSource {
  private readonly blocks = new Map<string, SyntheticBlock>();
  /** Canonical hashes by height. */
  private canonical: Uint8Array[] = [];
  readonly genesis: SyntheticBlock;
  /** Receipt reads, to check what the bloom and index spare. */
  receiptReads = 0;
  /** Heights whose canonical hash `canonicalHashNow` does not know (a cache that lacks them). */
  readonly uncachedHeights = new Set<bigint>();

  constructor(private readonly onStore?: (block: SyntheticBlock) => void | Promise<void>) {
    this.genesis = this.make(new Uint8Array(32), -1n, [], 'genesis');
    this.canonical = [this.genesis.hash()];
  }

  /** Stores a child of `parent` (default: the head) with one transaction per entry of `txLogs`; does not make it canonical. */
  async build(txLogs: ReceiptLog[][], parent: SyntheticBlock = this.headBlock(), salt = ''): Promise<SyntheticBlock> {
    const block = this.make(parent.hash(), parent.header.number, txLogs, salt);
    await this.onStore?.(block);
    return block;
  }

  /** Stores a child of the head and makes it the head. */
  async extend(txLogs: ReceiptLog[][], salt = ''): Promise<SyntheticBlock> {
    const block = await this.build(txLogs, this.headBlock(), salt);
    this.canonical.push(block.hash());
    return block;
  }

  /** Makes `newHead`'s ancestry canonical; returns the dropped (highest first) and added (lowest first) blocks. */
  reorgTo(newHead: SyntheticBlock): {
    dropped: SyntheticBlock[];
    added: SyntheticBlock[];
    commonAncestor: SyntheticBlock;
  } {
    const added: SyntheticBlock[] = [];
    let cursor = newHead;
    while (hex(this.canonical[Number(cursor.header.number)] ?? new Uint8Array()) !== hex(cursor.hash())) {
      added.unshift(cursor);
      cursor = this.blocks.get(hex(cursor.header.parentHash))!;
    }
    const dropped = this.canonical
      .slice(Number(cursor.header.number) + 1)
      .reverse()
      .map((h) => this.blocks.get(hex(h))!);
    this.canonical = [...this.canonical.slice(0, Number(cursor.header.number) + 1), ...added.map((b) => b.hash())];
    return { dropped, added, commonAncestor: cursor };
  }

  headBlock(): SyntheticBlock {
    return this.blocks.get(hex(this.canonical[this.canonical.length - 1]))!;
  }

  blockAt(number: bigint): SyntheticBlock | undefined {
    const hash = this.canonical[Number(number)];
    return hash === undefined ? undefined : this.blocks.get(hex(hash));
  }

  byHash(hash: Uint8Array): SyntheticBlock | undefined {
    return this.blocks.get(hex(hash));
  }

  // ---- LogSource
  headNumber(): bigint {
    return BigInt(this.canonical.length - 1);
  }
  async canonicalHash(number: bigint): Promise<Uint8Array | undefined> {
    return this.canonical[Number(number)];
  }
  canonicalHashNow(number: bigint): Uint8Array | undefined {
    return this.uncachedHeights.has(number) ? undefined : this.canonical[Number(number)];
  }
  async header(hash: Uint8Array): Promise<LogBlockHeader | undefined> {
    return this.blocks.get(hex(hash))?.header;
  }
  async blockReceipts(hash: Uint8Array): Promise<BlockReceipts | undefined> {
    const block = this.blocks.get(hex(hash));
    if (block === undefined) return undefined;
    this.receiptReads++;
    return { header: block.header, transactionHashes: block.transactionHashes, receipts: block.receipts };
  }

  private make(parentHash: Uint8Array, parentNumber: bigint, txLogs: ReceiptLog[][], salt: string): SyntheticBlock {
    const number = parentNumber + 1n;
    const hash = keccak256(Buffer.concat([parentHash, Buffer.from(`${number}:${salt}:${txLogs.length}`)]));
    const receipts = txLogs.map((logs) => ({ logs, logsBloom: logsBloomOf(logs) }));
    const header: LogBlockHeader = {
      hash,
      number,
      parentHash,
      timestamp: 1_000n + number,
      logsBloom: combineBlooms(receipts.map((r) => r.logsBloom)),
    };
    const txHashes = txLogs.map((_, i) => keccak256(Buffer.concat([hash, Buffer.from([i])])));
    const block = new SyntheticBlock(header, txHashes, receipts);
    this.blocks.set(hex(hash), block);
    return block;
  }
}

/** A real LevelDB in a temp dir holding the log index of every block the chain stores. */
export async function indexedChain(): Promise<{
  chain: SyntheticChain;
  db: Level<Uint8Array, Uint8Array>;
  close(): Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'logindex-'));
  const db = new Level<Uint8Array, Uint8Array>(dir, { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  const chain = new SyntheticChain((block) => db.batch(indexWrites(block, block.receipts)));
  return {
    chain,
    db,
    async close() {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
