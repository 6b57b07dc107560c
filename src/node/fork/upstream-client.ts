/**
 * The fork's JSON-RPC client of its upstream: the `ForkUpstream` port of chain/fork/upstream.ts over HTTP, within
 * the request limits of fork.* (request-limiter.ts). It only translates: the engine checks every answer (proofs,
 * code hashes, header hashes) before using it. A request that still fails after its retries becomes a
 * `ForkUpstreamError`, which the JSON-RPC layer answers with -32000 and its message.
 */
import { bigIntToUnpaddedBytes, hexToBytes } from '@ethereumjs/util';
import { ForkUpstreamError, type ForkUpstream, type UpstreamHeader, type UpstreamProof } from '../../chain/index.js';
import type { ForkConfig } from '../config.js';
import { readBoundedText } from './bounded-body.js';
import { RequestLimiter, TransientError } from './request-limiter.js';
import type { UpstreamIdentity } from './fork-cache.js';

/** How far below the upstream's head a fork starts by default: a few blocks, so a short reorg there does not matter. */
export const FORK_HEAD_DISTANCE = 5n;

/** The setting capping one answer's size, named in the error that refuses a larger one. */
const MAX_RESPONSE_SETTING = 'fork.max-response-bytes';

/** JSON-RPC's code for "too many requests" (also what svc-node's rate limit answers). */
const LIMIT_EXCEEDED = -32005;

type Hex = `0x${string}`;

interface RpcBlock {
  readonly hash: Hex;
  readonly parentHash: Hex;
  readonly sha3Uncles: Hex;
  readonly miner: Hex;
  readonly stateRoot: Hex;
  readonly transactionsRoot: Hex;
  readonly receiptsRoot: Hex;
  readonly logsBloom: Hex;
  readonly difficulty: Hex;
  readonly number: Hex;
  readonly gasLimit: Hex;
  readonly gasUsed: Hex;
  readonly timestamp: Hex;
  readonly extraData: Hex;
  readonly mixHash: Hex;
  readonly nonce: Hex;
  readonly baseFeePerGas?: Hex;
  readonly totalDifficulty?: Hex;
}

interface RpcProof {
  readonly accountProof: Hex[];
  readonly storageProof: { readonly proof: Hex[] }[];
}

export class UpstreamClient implements ForkUpstream {
  /** The upstream's URL without credentials, for messages and logs. */
  name: string;
  private url: string;
  private readonly limiter: RequestLimiter;
  private nextId = 1;
  /** Who the upstream must be, until the first request sent checks it (expectIdentity). */
  private expected: UpstreamIdentity | undefined;
  private identityChanged: ((url: string) => void) | undefined;
  /** The check under way, which other requests wait for. */
  private checking: Promise<unknown> | undefined;
  /** Set once the upstream turned out to be another chain: every later request fails with it. */
  private stopped: ForkUpstreamError | undefined;

  constructor(private readonly config: ForkConfig) {
    this.url = config.url;
    this.name = withoutCredentials(config.url);
    this.limiter = new RequestLimiter({
      concurrency: config.concurrency,
      perSecond: config.requestsPerSecond,
      retries: config.retries,
    });
  }

  /** anvil_setRpcUrl: requests from now on go to `url` (requests under way finish where they started). */
  setUrl(url: string): void {
    this.url = url;
    this.name = withoutCredentials(url);
  }

  async pinnedBlock(): Promise<bigint> {
    if (this.config.block !== undefined) return this.config.block;
    const head = BigInt(await this.call<Hex>('eth_blockNumber', []));
    return head > FORK_HEAD_DISTANCE ? head - FORK_HEAD_DISTANCE : 0n;
  }

  async header(number: bigint): Promise<UpstreamHeader> {
    const block = await this.call<RpcBlock | null>('eth_getBlockByNumber', [quantity(number), false]);
    if (block === null) throw new ForkUpstreamError(this.name, `it has no block ${number}`);
    const q = (hex: Hex) => bigIntToUnpaddedBytes(BigInt(hex));
    const values = [
      hexToBytes(block.parentHash),
      hexToBytes(block.sha3Uncles),
      hexToBytes(block.miner),
      hexToBytes(block.stateRoot),
      hexToBytes(block.transactionsRoot),
      hexToBytes(block.receiptsRoot),
      hexToBytes(block.logsBloom),
      q(block.difficulty),
      q(block.number),
      q(block.gasLimit),
      q(block.gasUsed),
      q(block.timestamp),
      hexToBytes(block.extraData),
      hexToBytes(block.mixHash),
      hexToBytes(block.nonce),
      ...(block.baseFeePerGas !== undefined ? [q(block.baseFeePerGas)] : []),
    ];
    return {
      values,
      hash: hexToBytes(block.hash),
      totalDifficulty: BigInt(block.totalDifficulty ?? block.difficulty),
    };
  }

  async proof(address: Uint8Array, slots: readonly Uint8Array[], block: bigint): Promise<UpstreamProof> {
    const proof = await this.call<RpcProof>('eth_getProof', [hex(address), slots.map(hex), quantity(block)]);
    return {
      accountProof: proof.accountProof.map((node) => hexToBytes(node)),
      storageProofs: proof.storageProof.map((s) => s.proof.map((node) => hexToBytes(node))),
    };
  }

  async code(address: Uint8Array, block: bigint): Promise<Uint8Array> {
    return hexToBytes(await this.call<Hex>('eth_getCode', [hex(address), quantity(block)]));
  }

  /**
   * Has the first request this client really sends also ask the upstream's chain id and genesis, in the same batch,
   * and stop the fork if they are not `expected`'s (the identity was remembered, not asked: upstream-identity.ts).
   * `changed` hears of a mismatch once, with the URL that answered.
   */
  expectIdentity(expected: UpstreamIdentity, changed?: (url: string) => void): void {
    this.expected = expected;
    this.identityChanged = changed;
  }

  /** One JSON-RPC call within the limits; its result, or a ForkUpstreamError naming the method and what failed. */
  async call<T>(method: string, params: readonly unknown[]): Promise<T> {
    // Requests wait for the identity check under way: an answer from another chain is never used.
    while (this.checking !== undefined) await this.checking.catch(() => undefined);
    if (this.stopped !== undefined) throw this.stopped;
    if (this.expected === undefined) return this.run(method, () => this.attempt<T>(method, params));
    const check = this.run(method, () => this.checkedAttempt<T>(method, params));
    this.checking = check;
    try {
      return await check;
    } finally {
      this.checking = undefined;
    }
  }

  private async run<T>(method: string, attempt: () => Promise<T>): Promise<T> {
    try {
      return await this.limiter.run(attempt);
    } catch (err) {
      if (err instanceof IdentityChanged) {
        this.stopped ??= new ForkUpstreamError(this.name, err.message);
        const changed = this.identityChanged;
        this.identityChanged = undefined;
        changed?.(this.url);
        throw this.stopped;
      }
      const reason = err instanceof Error ? err.message : String(err);
      throw new ForkUpstreamError(this.name, `${method}: ${reason}`, { cause: err });
    }
  }

  private async attempt<T>(method: string, params: readonly unknown[]): Promise<T> {
    return resultOf<T>(await this.post({ jsonrpc: '2.0', id: this.nextId++, method, params }));
  }

  /** `method` with eth_chainId and the genesis block in one batch; the identity checked before the answer is used. */
  private async checkedAttempt<T>(method: string, params: readonly unknown[]): Promise<T> {
    const ask = (m: string, p: readonly unknown[]) => ({ jsonrpc: '2.0', id: this.nextId++, method: m, params: p });
    const batch = [ask('eth_chainId', []), ask('eth_getBlockByNumber', ['0x0', false]), ask(method, params)];
    const answers = await this.post(batch);
    if (!Array.isArray(answers)) {
      // An upstream that takes no batches: the same questions one at a time.
      this.verify(await this.attempt<Hex>('eth_chainId', []), await this.attempt<RpcBlock | null>(...GENESIS));
      return this.attempt<T>(method, params);
    }
    const byId = new Map((answers as { id?: unknown }[]).map((a) => [a?.id, a]));
    const [chainId, genesis, answer] = batch.map((b) => byId.get(b.id));
    this.verify(resultOf<Hex>(chainId), resultOf<RpcBlock | null>(genesis));
    return resultOf<T>(answer);
  }

  private verify(chainIdHex: Hex, genesis: RpcBlock | null): void {
    const expected = this.expected;
    if (expected === undefined) return;
    const chainId = BigInt(chainIdHex).toString();
    const host = new URL(this.url).host;
    const advice = `fork mode stopped: nothing more is read from ${host}; fork it in a new datadir, or give --fork-url a node of chain ${expected.chainId}`;
    if (chainId !== expected.chainId)
      throw new IdentityChanged(
        `${host} now answers chain id ${chainId}, but this fork was made of chain id ${expected.chainId}; ${advice}`,
      );
    if (genesis?.hash.toLowerCase() !== expected.genesisHash.toLowerCase())
      throw new IdentityChanged(
        `${host} now has genesis ${genesis?.hash}, but this fork was made of chain id ${chainId} with genesis ${expected.genesisHash}; ${advice}`,
      );
    this.expected = undefined;
  }

  /** One HTTP POST of `body` within fork.timeout and fork.max-response-bytes; the parsed answer. */
  private async post(body: unknown): Promise<unknown> {
    let response: Response;
    const tooLarge = new AbortController();
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.any([AbortSignal.timeout(this.config.timeoutMs), tooLarge.signal]),
      });
    } catch (err) {
      throw new TransientError((err as Error).cause instanceof Error ? (err as Error).cause!.toString() : String(err));
    }
    if (response.status === 429 || response.status >= 500) {
      await response.body?.cancel().catch(() => {});
      throw new TransientError(`HTTP ${response.status}`);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`HTTP ${response.status}`);
    }
    const text = await readBoundedText(response, this.config.maxResponseBytes, MAX_RESPONSE_SETTING, () =>
      tooLarge.abort(),
    );
    return JSON.parse(text);
  }
}

/** The identity the upstream answers is not the one the fork was made of (never retried). */
class IdentityChanged extends Error {}

const GENESIS = ['eth_getBlockByNumber', ['0x0', false]] as const;

/** A JSON-RPC answer's result, or the error it carries (a rate limit's is transient). */
function resultOf<T>(answer: unknown): T {
  if (typeof answer !== 'object' || answer === null) throw new Error('no answer');
  const body = answer as { result?: T; error?: { code: number; message: string } };
  if (body.error !== undefined) {
    const message = `error ${body.error.code}: ${body.error.message}`;
    throw body.error.code === LIMIT_EXCEEDED ? new TransientError(message) : new Error(message);
  }
  if (!('result' in body)) throw new Error('an answer without result or error');
  return body.result as T;
}

/** One client per fork setting: the engine's state reads and the fork history's requests share it, and its URL. */
const clients = new WeakMap<ForkConfig, UpstreamClient>();

export function upstreamClientFor(config: ForkConfig): UpstreamClient {
  let client = clients.get(config);
  if (client === undefined) {
    client = new UpstreamClient(config);
    clients.set(config, client);
  }
  return client;
}

function withoutCredentials(text: string): string {
  const url = new URL(text);
  url.username = '';
  url.password = '';
  return url.toString();
}

const quantity = (n: bigint): Hex => `0x${n.toString(16)}`;
const hex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;
