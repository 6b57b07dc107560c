/**
 * One snap request and the checks of its answer, so that nothing unverified reaches the database: account and
 * storage ranges against their Merkle range proofs (@ethereumjs/mpt), codes against their hashes, and every answer
 * against the byte budget it was asked with. A wrong answer throws BadAnswer, an empty one NotHeld.
 */
import { verifyMerkleRangeProof } from '@ethereumjs/mpt';
import {
  accountBodyFromSlim,
  type AccountBodyBytes,
  bytesToHex,
  bytesToUnprefixedHex,
  equalsBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
} from '@ethereumjs/util';
import {
  encodeRlp,
  decodeRlpList,
  keccak256,
  type ProvenRange,
  verifyRangeWithProof,
  buildRangeTrie,
  type RangeEntry,
} from '../../../chain/index.js';
import type { EthSession } from '../../eth/session.js';
import { BadAnswer, NotHeld } from './peers.js';
import { MAX_STORAGE_REQUEST_BYTES, type Ticket } from './rates.js';

/** The most a storage request asks for (rates.ts). */
export const REQUEST_BYTES = MAX_STORAGE_REQUEST_BYTES;
/** An answer may pass the byte limit it was asked with by one item, not by much more. */
export const allowedBytes = (asked: number) => asked + 64 * 1024;
const ZERO_HASH = new Uint8Array(32);

export interface AccountEntry extends RangeEntry {
  readonly storageRoot: Uint8Array;
  readonly codeHash: Uint8Array;
}

export interface AccountRangeAnswer {
  readonly entries: AccountEntry[];
  /** Whether the trie holds accounts after the last one returned. */
  readonly more: boolean;
  /** The account-trie nodes the range proved complete (chain/state/range-proof.ts), to be stored as they are. */
  readonly nodes: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

export async function fetchAccountRange(
  peer: EthSession,
  root: Uint8Array,
  origin: Uint8Array,
  limit: Uint8Array,
  ticket: Ticket,
): Promise<AccountRangeAnswer> {
  const res = await peer.getAccountRange({ root, origin, limit, bytes: BigInt(ticket.bytes) }, ticket.timeoutMs);
  const answeredAt = performance.now();
  if (res.accounts.length === 0 && res.proof.length === 0) throw new NotHeld('empty account range');
  let size = 0;
  const entries = res.accounts.map((a) => {
    size += a.hash.length + a.body.length;
    // Views into the slim body (which the message decoder built for this account alone), not copies.
    const full = accountBodyFromSlim(decodeRlpList(a.body) as AccountBodyBytes) as AccountBodyBytes;
    return { key: a.hash, value: encodeRlp(full), storageRoot: full[2], codeHash: full[3] };
  });
  size += res.proof.reduce((n, p) => n + p.length, 0);
  ticket.answered = { at: answeredAt, bytes: size };
  if (size > allowedBytes(ticket.bytes))
    throw new BadAnswer(`sent an account range of ${size} bytes, ${ticket.bytes} were asked`);
  const keys = entries.map((e) => e.key);
  const values = entries.map((e) => e.value);
  const { more, nodes } = await verifyRange(root, origin, keys, values, res.proof, 'account range');
  return { entries, more, nodes };
}

/**
 * Checks a range against its proof and returns whether the trie holds keys after it, with the nodes the range
 * proves complete (to be stored as they are); throws BadAnswer when the proof does not hold.
 */
async function verifyRange(
  root: Uint8Array,
  origin: Uint8Array,
  keys: Uint8Array[],
  values: Uint8Array[],
  proof: Uint8Array[],
  what: string,
): Promise<ProvenRange> {
  try {
    if (proof.length === 0) {
      // No proof is allowed only for a whole trie, which the built root must then match.
      const { root: built, nodes } = await buildRangeTrie(keys.map((key, i) => ({ key, value: values[i]! })));
      if (!equalsBytes(built, root)) throw new Error('the range without proof is not the whole trie');
      return { more: false, nodes };
    }
    if (keys.length === 0) {
      const more = await verifyMerkleRangeProof(root, origin, null, [], [], proof, keccak256);
      return { more, nodes: [] };
    }
    return await verifyRangeWithProof(root, origin, keys, values, proof, keccak256);
  } catch (err) {
    throw new BadAnswer(`sent a ${what} whose proof does not verify: ${(err as Error).message}`);
  }
}

export interface StorageJob {
  readonly account: Uint8Array;
  readonly root: Uint8Array;
}

export interface StorageRangeAnswer {
  readonly job: StorageJob;
  readonly slots: RangeEntry[];
  /** Whether the trie holds more after these slots (only the last range of an answer may). */
  readonly more: boolean;
  /** The nodes these slots prove complete (for a whole trie: all of its nodes), to be stored as they are. */
  readonly nodes: ReadonlyArray<readonly [Uint8Array, Uint8Array]>;
}

export interface StorageAnswer {
  /** Per answered job, in order. */
  readonly ranges: StorageRangeAnswer[];
}

/**
 * Storage of several accounts from the start (`origin` undefined), or of one account from `origin` on. Every
 * complete trie must rebuild to its root; a partial last one needs a verifying proof.
 */
export async function fetchStorageRanges(
  peer: EthSession,
  stateRoot: Uint8Array,
  jobs: readonly StorageJob[],
  ticket: Ticket,
  origin?: Uint8Array,
): Promise<StorageAnswer> {
  const res = await peer.getStorageRanges(
    {
      root: stateRoot,
      accounts: jobs.map((j) => j.account),
      origin: origin ?? new Uint8Array(0),
      limit: new Uint8Array(0),
      bytes: BigInt(ticket.bytes),
    },
    ticket.timeoutMs,
  );
  const answeredAt = performance.now();
  if (res.slots.length === 0 || (res.slots[0]!.length === 0 && res.proof.length === 0))
    throw new NotHeld('empty storage ranges');
  if (res.slots.length > jobs.length) throw new BadAnswer(`sent ${res.slots.length} storage ranges for ${jobs.length}`);
  let size = res.proof.reduce((n, p) => n + p.length, 0);
  for (const slots of res.slots) for (const s of slots) size += s.hash.length + s.body.length;
  ticket.answered = { at: answeredAt, bytes: size };
  if (size > allowedBytes(ticket.bytes))
    throw new BadAnswer(`sent storage ranges of ${size} bytes, ${ticket.bytes} were asked`);
  const ranges: StorageAnswer['ranges'] = [];
  for (let i = 0; i < res.slots.length; i++) {
    const job = jobs[i]!;
    const slots = res.slots[i]!.map((s) => ({ key: s.hash, value: s.body }));
    const last = i === res.slots.length - 1;
    const from = origin ?? ZERO_HASH;
    if (last && res.proof.length > 0) {
      const keys = slots.map((s) => s.key);
      const proven = await verifyRange(
        job.root,
        from,
        keys,
        slots.map((s) => s.value),
        res.proof,
        'storage range',
      );
      ranges.push({ job, slots, ...proven });
    } else if (origin === undefined) {
      const { root, nodes } = await buildRangeTrie(slots);
      if (!equalsBytes(root, job.root))
        throw new BadAnswer(`sent storage of ${bytesToHex(job.account)} that does not build its storage root`);
      ranges.push({ job, slots, more: false, nodes });
    } else throw new BadAnswer('sent a partial storage range without a proof');
  }
  return { ranges };
}

/** Codes for `hashes`: each answered code must hash to one of them (snap.md lets a peer skip some). */
export async function fetchByteCodes(
  peer: EthSession,
  hashes: readonly Uint8Array[],
  ticket: Ticket,
): Promise<Uint8Array[]> {
  const res = await peer.getByteCodes({ hashes: [...hashes], bytes: BigInt(ticket.bytes) }, ticket.timeoutMs);
  const answeredAt = performance.now();
  if (res.codes.length === 0) throw new NotHeld('no byte codes');
  const wanted = new Set(hashes.map(bytesToUnprefixedHex));
  let size = 0;
  for (const code of res.codes) {
    size += code.length;
    if (!wanted.has(bytesToUnprefixedHex(keccak256(code))))
      throw new BadAnswer('sent a byte code whose hash was not asked for');
  }
  ticket.answered = { at: answeredAt, bytes: size };
  // One code may pass the limit by its whole size (24 KiB at most).
  if (size > allowedBytes(ticket.bytes) + 24 * 1024)
    throw new BadAnswer(`sent byte codes of ${size} bytes, ${ticket.bytes} were asked`);
  return res.codes;
}

// Asked for every account of every range: compared as bytes, not as two fresh hex strings each time.
export const isEmptyStorage = (root: Uint8Array) => equalsBytes(root, KECCAK256_RLP);
export const isEmptyCode = (hash: Uint8Array) => equalsBytes(hash, KECCAK256_NULL);
