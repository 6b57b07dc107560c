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

  /** One JSON-RPC call within the limits; its result, or a ForkUpstreamError naming the method and what failed. */
  async call<T>(method: string, params: readonly unknown[]): Promise<T> {
    try {
      return await this.limiter.run(() => this.attempt<T>(method, params));
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new ForkUpstreamError(this.name, `${method}: ${reason}`, { cause: err });
    }
  }

  private async attempt<T>(method: string, params: readonly unknown[]): Promise<T> {
    let response: Response;
    const tooLarge = new AbortController();
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
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
    const body = JSON.parse(text) as { result?: T; error?: { code: number; message: string } };
    if (body.error !== undefined) {
      const message = `error ${body.error.code}: ${body.error.message}`;
      throw body.error.code === LIMIT_EXCEEDED ? new TransientError(message) : new Error(message);
    }
    if (!('result' in body)) throw new Error('an answer without result or error');
    return body.result as T;
  }
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
