/**
 * The first block of a forked chain. A fork datadir does not start at a genesis: its first stored block is the
 * upstream's block at the fork height (header only: its transactions ran upstream), recorded as `forkBase`. Its
 * state root is the base state (fork-state.ts reads it lazily), the blocks mined here continue from it, and BLOCKHASH
 * below it is answered from upstream headers, kept in the canonical index like any other height's hash.
 *
 * A restart finds the record and resumes on the stored chain without asking the upstream anything.
 */
import type { Block, BlockBytes } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { BlockCodec } from '../codec/block-codec.js';
import type { BlockStore } from '../db/block-store.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';
import { ForkUpstreamError, type ForkUpstream } from './upstream.js';

export interface ForkBaseRecord {
  readonly number: bigint;
  readonly hash: Uint8Array;
}

export function decodeForkBase(bytes: Uint8Array | undefined): ForkBaseRecord | undefined {
  if (bytes === undefined) return undefined;
  const [number, hash] = RLP.decode(bytes) as Uint8Array[];
  return { number: bytesToBigInt(number), hash };
}

interface ForkBaseParts {
  readonly upstream: ForkUpstream;
  readonly store: BlockStore;
  readonly db: ChainDB;
  readonly codec: BlockCodec;
  readonly dataDir: string;
}

/** The stored base block, or (first open) the pinned upstream block, fetched, checked and stored as the head. */
export async function openForkBase(parts: ForkBaseParts): Promise<Block> {
  const { upstream, store, db, dataDir } = parts;
  const stored = decodeForkBase(await store.getMeta('forkBase'));
  if (stored !== undefined) {
    const block = await store.getBlock(stored.hash);
    if (block === undefined) throw new Error(`the fork datadir ${dataDir} lost its base block ${stored.number}`);
    return block;
  }
  if ((await store.getMeta('genesis')) !== undefined)
    throw new Error(
      `the datadir ${dataDir} holds a chain of its own: a fork starts in an empty datadir (give it one with --datadir)`,
    );
  const number = await upstream.pinnedBlock();
  const { block, totalDifficulty } = await upstreamBlock(parts, number);
  const batch = new WriteBatch();
  store.stageBlock(batch, block, [], totalDifficulty);
  store.stageCanonical(batch, block);
  store.stageHead(batch, block.hash());
  batch.put(keys.meta('forkBase'), RLP.encode([bigIntToUnpaddedBytes(number), block.hash()]));
  await db.write(batch);
  return block;
}

/** The upstream's block at `number` as a header-only block, its hash checked against what the upstream says. */
async function upstreamBlock(parts: ForkBaseParts, number: bigint): Promise<{ block: Block; totalDifficulty: bigint }> {
  const { values, hash, totalDifficulty } = await parts.upstream.header(number);
  const block = parts.codec.block([values, [], []] as unknown as BlockBytes);
  if (block.header.number !== number || !equalsBytes(block.hash(), hash)) {
    throw new ForkUpstreamError(
      parts.upstream.name,
      `its header of block ${number} hashes to ${bytesToHex(block.hash())}, not to the ${bytesToHex(hash)} it names`,
    );
  }
  return { block, totalDifficulty };
}

/**
 * BLOCKHASH below the base: the canonical index if the hash was read before, else the upstream's header (its hash
 * checked), which is then written to the index.
 */
export function preForkHashes(parts: ForkBaseParts): (number: bigint) => Promise<Uint8Array> {
  return async (number) => {
    const known = await parts.store.getCanonicalHash(number);
    if (known !== undefined) return known;
    const { values, hash } = await parts.upstream.header(number);
    const computed = parts.codec.header(values as never).hash();
    if (!equalsBytes(computed, hash))
      throw new ForkUpstreamError(
        parts.upstream.name,
        `its header of block ${number} does not hash to ${bytesToHex(hash)}`,
      );
    await parts.db.write(new WriteBatch().put(keys.canonical(number), hash));
    parts.store.noteCanonical(number, hash);
    return hash;
  };
}
