/**
 * Lazy state of a forked chain. The chain's base block is the upstream's block at the fork height, so the base state
 * root is the upstream's, but the trie nodes under it are not here yet. A read that meets a missing node asks the
 * upstream for the EIP-1186 proof of that account (and slot) at the fork block, checks it against the base state
 * root, and stores its nodes with the chain's other trie nodes; the read then runs again and the local trie answers,
 * absence included (a proof of absence holds the nodes that show the path ends). Blocks built on top get real
 * state roots, since every sibling hash on a touched path came with the proofs. Code is fetched by address and kept
 * under its hash once its keccak matches the account's code hash.
 *
 * Everything read is in the datadir, so a restarted fork never asks again for it.
 */
import { verifyMerkleProof } from '@ethereumjs/mpt';
import {
  KECCAK256_RLP,
  bytesToHex,
  bytesToUnprefixedHex,
  concatBytes,
  createAccountFromRLP,
  equalsBytes,
  utf8ToBytes,
} from '@ethereumjs/util';
import { keccak256 } from '../base/crypto.js';
import { type ChainDB, WriteBatch } from '../db/chain-db.js';
import { keys } from '../db/keys.js';
import { ForkUpstreamError, type ForkUpstream } from './upstream.js';

/** The state manager keeps code under 'c' + code hash (@ethereumjs/statemanager's CODEHASH_PREFIX). */
const CODE_PREFIX = utf8ToBytes('c');

export interface ForkPoint {
  readonly number: bigint;
  readonly stateRoot: Uint8Array;
}

export class ForkStateSource {
  /** Reads under way, by what they fetch: concurrent misses on one account share one upstream request. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly upstream: ForkUpstream,
    private readonly db: ChainDB,
    readonly base: ForkPoint,
  ) {}

  get upstreamName(): string {
    return this.upstream.name;
  }

  /** Stores the proven path of `address` (and of `slot` in its storage) from the base state. */
  resolve(address: Uint8Array, slot?: Uint8Array): Promise<void> {
    const id = bytesToUnprefixedHex(address) + (slot === undefined ? '' : bytesToUnprefixedHex(slot));
    return this.once(id, () => this.fetchProof(address, slot));
  }

  /** Stores the code of `address`, which the state says hashes to `codeHash`. */
  resolveCode(address: Uint8Array, codeHash: Uint8Array): Promise<void> {
    return this.once(`code${bytesToUnprefixedHex(codeHash)}`, async () => {
      const code = await this.upstream.code(address, this.base.number);
      if (!equalsBytes(keccak256(code), codeHash))
        throw this.fault(`the code of ${bytesToHex(address)} does not hash to ${bytesToHex(codeHash)}`);
      await this.db.write(new WriteBatch().put(keys.state(concatBytes(CODE_PREFIX, codeHash)), code));
    });
  }

  /** Whether the code under `codeHash` is stored. */
  async hasCode(codeHash: Uint8Array): Promise<boolean> {
    return (await this.db.get(keys.state(concatBytes(CODE_PREFIX, codeHash)))) !== undefined;
  }

  /** The error for a read that still misses a node after its proof was stored (the proof did not cover it). */
  stillMissing(address: Uint8Array, cause: unknown): ForkUpstreamError {
    return this.fault(`its proof for ${bytesToHex(address)} does not cover the path the state needs`, cause);
  }

  private once(id: string, work: () => Promise<void>): Promise<void> {
    const running = this.inFlight.get(id);
    if (running !== undefined) return running;
    const started = work().finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, started);
    return started;
  }

  private async fetchProof(address: Uint8Array, slot: Uint8Array | undefined): Promise<void> {
    const { accountProof, storageProofs } = await this.upstream.proof(
      address,
      slot === undefined ? [] : [slot],
      this.base.number,
    );
    const accountRlp = await this.verify(address, accountProof, this.base.stateRoot, `account ${bytesToHex(address)}`);
    const nodes = [...accountProof];
    if (slot !== undefined && accountRlp !== null) {
      const { storageRoot } = createAccountFromRLP(accountRlp);
      const storageProof = storageProofs[0] ?? [];
      if (!equalsBytes(storageRoot, KECCAK256_RLP)) {
        await this.verify(slot, storageProof, storageRoot, `slot ${bytesToHex(slot)} of ${bytesToHex(address)}`);
        nodes.push(...storageProof);
      }
    }
    const batch = new WriteBatch();
    for (const node of nodes) batch.put(keys.state(keccak256(node)), node);
    await this.db.write(batch);
  }

  /** The proven value under `key` (null: proven absent); throws when the proof does not lead from `root`. */
  private async verify(
    key: Uint8Array,
    proof: readonly Uint8Array[],
    root: Uint8Array,
    what: string,
  ): Promise<Uint8Array | null> {
    try {
      return await verifyMerkleProof(key, [...proof], { root, useKeyHashing: true });
    } catch (cause) {
      throw this.fault(`its proof of ${what} does not match state root ${bytesToHex(root)}`, cause);
    }
  }

  private fault(reason: string, cause?: unknown): ForkUpstreamError {
    return new ForkUpstreamError(this.upstream.name, reason, cause === undefined ? undefined : { cause });
  }
}
