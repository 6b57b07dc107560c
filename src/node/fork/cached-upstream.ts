/**
 * The `ForkUpstream` a fork reads through: answers for its fork block come from the fork cache (fork-cache.ts) when
 * another datadir (or an earlier run) asked for them, and the upstream's answers are kept there for the next one.
 * The engine checks every answer as before (proofs against the base state root, code against its hash), cached or
 * not. Headers are kept under the fork block once it is known (the engine asks for the pinned block first). The fork
 * history's answers (blocks, transactions, receipts and logs below the fork block, asked by handlers/fork-history.ts)
 * are kept there too, one file per request, named by its hash.
 */
import { createHash } from 'node:crypto';
import { bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import type { ForkUpstream, UpstreamHeader, UpstreamProof } from '../../chain/index.js';
import { ForkCache, type ForkCacheDir, type UpstreamIdentity } from './fork-cache.js';
import type { ForkCacheConfig } from './fork-config.js';

type Hex = `0x${string}`;

/** One ForkCache per cache directory in the process, so eviction knows every fork directory this process has open. */
const caches = new Map<string, ForkCache>();

export function forkCacheFor(config: ForkCacheConfig): ForkCache {
  let cache = caches.get(config.dir);
  if (cache === undefined) {
    cache = new ForkCache(config);
    caches.set(config.dir, cache);
  }
  return cache;
}

/** The fork cache each upstream client reads through, for the fork history's answers (handlers/fork-history.ts). */
const byClient = new WeakMap<ForkUpstream, CachedUpstream>();

/** `upstream` read through the fork cache of `config` (itself when the cache is off). */
export function cachedUpstreamOf(upstream: ForkUpstream, who: UpstreamIdentity, config: ForkCacheConfig): ForkUpstream {
  const cache = forkCacheFor(config);
  if (!cache.enabled) return upstream;
  const cached = new CachedUpstream(upstream, cache, who);
  byClient.set(upstream, cached);
  return cached;
}

/** The fork cache `client`'s fork reads through; undefined when the cache is off. */
export const sharedCacheOf = (client: ForkUpstream): CachedUpstream | undefined => byClient.get(client);

export class CachedUpstream implements ForkUpstream {
  private readonly dirs = new Map<bigint, Promise<ForkCacheDir | undefined>>();
  private forkBlock: bigint | undefined;

  constructor(
    private readonly upstream: ForkUpstream,
    private readonly cache: ForkCache,
    private readonly who: UpstreamIdentity,
  ) {}

  get name(): string {
    return this.upstream.name;
  }

  async pinnedBlock(): Promise<bigint> {
    this.forkBlock = await this.upstream.pinnedBlock();
    return this.forkBlock;
  }

  header(number: bigint): Promise<UpstreamHeader> {
    if (this.forkBlock === undefined || number > this.forkBlock) return this.upstream.header(number);
    return this.through(this.forkBlock, `header-${number}.json`, () => this.upstream.header(number), {
      encode: (h) => JSON.stringify({ values: h.values.map(hex), hash: hex(h.hash), td: h.totalDifficulty.toString() }),
      decode: (text) => {
        const h = JSON.parse(text) as { values: Hex[]; hash: Hex; td: string };
        return { values: h.values.map((v) => hexToBytes(v)), hash: hexToBytes(h.hash), totalDifficulty: BigInt(h.td) };
      },
    });
  }

  proof(address: Uint8Array, slots: readonly Uint8Array[], block: bigint): Promise<UpstreamProof> {
    this.forkBlock ??= block;
    const name = ['proof', bytesToUnprefixedHex(address), ...slots.map(bytesToUnprefixedHex)].join('-');
    return this.through(block, `${name}.json`, () => this.upstream.proof(address, slots, block), {
      encode: (p) =>
        JSON.stringify({ account: p.accountProof.map(hex), storage: p.storageProofs.map((s) => s.map(hex)) }),
      decode: (text) => {
        const p = JSON.parse(text) as { account: Hex[]; storage: Hex[][] };
        return {
          accountProof: p.account.map((n) => hexToBytes(n)),
          storageProofs: p.storage.map((s) => s.map((n) => hexToBytes(n))),
        };
      },
    });
  }

  code(address: Uint8Array, block: bigint): Promise<Uint8Array> {
    this.forkBlock ??= block;
    return this.through(block, `code-${bytesToUnprefixedHex(address)}.bin`, () => this.upstream.code(address, block), {
      encode: (code) => code,
      decode: (bytes) => new Uint8Array(bytes),
      binary: true,
    });
  }

  /**
   * An answer about the fork's history (a block, transaction, receipt or logs at or below `block`, the fork block):
   * from the fork cache under `key` (the request), else `ask()`'s, kept when `keep` says it is history.
   */
  async history<T>(block: bigint, key: string, ask: () => Promise<T>, keep: (answer: T) => boolean): Promise<T> {
    const dir = await this.dirOf(block);
    const name = `history-${createHash('sha256').update(key).digest('hex')}.json`;
    const kept = await dir?.read(name);
    if (kept !== undefined) {
      try {
        const entry = JSON.parse(kept.toString('utf8')) as { key: string; answer: T };
        if (entry.key === key) return entry.answer;
      } catch {
        // Damaged: asked again and replaced.
      }
    }
    const answer = await ask();
    if (keep(answer)) await dir?.write(name, JSON.stringify({ key, answer }));
    return answer;
  }

  private async through<T>(
    block: bigint,
    name: string,
    ask: () => Promise<T>,
    form: { encode(value: T): string | Uint8Array; decode(kept: string & Buffer): T; binary?: boolean },
  ): Promise<T> {
    const dir = await this.dirOf(block);
    const kept = await dir?.read(name);
    if (kept !== undefined) {
      try {
        return form.decode((form.binary === true ? kept : kept.toString('utf8')) as string & Buffer);
      } catch {
        // A damaged entry (a disk problem; writes are atomic) is asked again and replaced.
      }
    }
    const value = await ask();
    await dir?.write(name, form.encode(value));
    return value;
  }

  private dirOf(block: bigint): Promise<ForkCacheDir | undefined> {
    let dir = this.dirs.get(block);
    if (dir === undefined) {
      dir = this.cache.forkDir(this.who, block).catch(() => undefined);
      this.dirs.set(block, dir);
    }
    return dir;
  }
}

const hex = (bytes: Uint8Array): Hex => bytesToHex(bytes);
