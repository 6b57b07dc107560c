/**
 * The chains bench/mgas.ts imports, built once and cached in the tmp dir (as raw blocks, so a run never opens the
 * source): the state-heavy account blocks of bench/snap-chain.ts, and blocks of mixed ERC-20 transfers and
 * contract calls filled to ETC's gas limit on a dev chain whose genesis carries that limit.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  Address,
  bigIntToBytes,
  bytesToHex,
  concatBytes,
  createContractAddress,
  hexToBytes,
  privateToAddress,
  setLengthLeft,
} from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { DEV_ACCOUNTS, dev } from '../src/chain/networks/index.js';
import type { NetworkDefinition } from '../src/chain/networks/types.js';
import { asm, initCodeOf, label, push, to } from '../test/chain/differential/asm.js';
import { buildServingChain } from './snap-chain.js';

export const BENCH_DIR = join(tmpdir(), 'svc-node-bench-mgas');
export const POW_CACHE_DIR = join(tmpdir(), 'svc-node-bench-ethash');

/** ETC mainnet's block gas limit today (8,000,000; the issue's figure, and Mantis' dev genesis 0x7A1200). */
export const ETC_GAS_LIMIT = 8_000_000n;

/** The mixed row's network: the dev chain (every ETC fork through Spiral from block 0) with an 8 M-gas genesis. */
export const mixedNetwork: NetworkDefinition = {
  ...dev,
  genesis: { ...dev.genesis, header: { ...dev.genesis.header, gasLimit: ETC_GAS_LIMIT } },
};

// ------------------------------------------------------------------------------------------ raw block files

/** Blocks as 4-byte big-endian lengths each followed by the block's RLP. */
export function writeBlocks(file: string, blocks: readonly Uint8Array[]): void {
  const parts: Uint8Array[] = [];
  for (const b of blocks) {
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, b.length);
    parts.push(len, b);
  }
  writeFileSync(file, concatBytes(...parts));
}

export function readBlocks(file: string): Uint8Array[] {
  const bytes = new Uint8Array(readFileSync(file));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; ) {
    const n = view.getUint32(at);
    out.push(bytes.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

/** A chain to import: its blocks from 1 on, how to open an engine on its network, and where timing starts. */
export interface BenchChain {
  readonly name: 'heavy' | 'mixed';
  readonly dir: string;
  readonly blocks: Uint8Array[];
  /** The first timed block; 1 … first−1 are in the base datadir. */
  readonly first: number;
  readonly open: { readonly network: 'dev' | NetworkDefinition; readonly seal: 'ethash' | 'instant' };
}

// ------------------------------------------------------------------------------------------ state-heavy blocks

/**
 * The serving chain's blocks 1 … last. `source`: an existing serving chain (read from a scratch copy); else one of
 * `accounts` accounts is built (no contract blocks), which takes ~2 s of CPU per 1,000 accounts.
 */
export async function heavyChain(opts: { source?: string; accounts: number; first: number; count: number }) {
  const last = opts.first + opts.count - 1;
  const dir = join(BENCH_DIR, `heavy-${opts.source === undefined ? opts.accounts : 'given'}-${last}`);
  const file = join(dir, 'blocks.bin');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const sourceDir =
      opts.source ??
      (await buildServingChain(join(BENCH_DIR, `serving-${opts.accounts}`), POW_CACHE_DIR, {
        accounts: opts.accounts,
        contracts: 0,
        slotsPerContract: 1,
        onTop: 0,
      }));
    const copy = join(dir, 'source-copy');
    rmSync(copy, { recursive: true, force: true });
    // Opening a datadir writes to it (the flat table's build): a given chain may be shared by other benches.
    const { cpSync } = await import('node:fs');
    cpSync(sourceDir, copy, { recursive: true });
    const source = await ChainEngine.open({ dataDir: copy, network: 'dev', powCacheDir: POW_CACHE_DIR });
    try {
      if (source.chain.getHead().header.number < BigInt(last))
        throw new Error(`the serving chain ends at ${source.chain.getHead().header.number}, before block ${last}`);
      const blocks: Uint8Array[] = [];
      for (let n = 1n; n <= BigInt(last); n++) blocks.push((await source.chain.getBlock(n))!.serialize());
      writeBlocks(file, blocks);
    } finally {
      await source.close();
      rmSync(copy, { recursive: true, force: true });
    }
  }
  const chain: BenchChain = {
    name: 'heavy',
    dir,
    blocks: readBlocks(file),
    first: opts.first,
    open: { network: 'dev', seal: 'ethash' },
  };
  return chain;
}

// ------------------------------------------------------------------------------------------ mixed blocks

const GWEI = 1_000_000_000n;
const devKey = hexToBytes(DEV_ACCOUNTS[0]!.privateKey as `0x${string}`);
const devAddress = new Address(privateToAddress(devKey));

const tokenArtifact = JSON.parse(readFileSync(new URL('./contracts/BenchToken.json', import.meta.url), 'utf8')) as {
  bytecode: string;
};
const selector = (sig: string) => keccak256(new TextEncoder().encode(sig)).subarray(0, 4);
const word = (v: bigint | Uint8Array) => setLengthLeft(typeof v === 'bigint' ? bigIntToBytes(v) : v, 32);
const TRANSFER = selector('transfer(address,uint256)');

/**
 * The "ledger" contract of the mixed blocks. Calldata (key, token): a shared counter (slot 0) += 1; slot[key] += 1
 * (a new slot for a new key); slot[caller] = block number; reads slot[key+1] and slot[key+2] and the caller's
 * token balance (STATICCALL balanceOf); logs LOG2(Noted, key) with the sum of what it read.
 */
function ledgerRuntime(): Uint8Array {
  const KEY = [push(0), 'CALLDATALOAD'] as const;
  return asm([
    ...[push(0), 'SLOAD', push(1), 'ADD', push(0), 'SSTORE'],
    ...KEY,
    'DUP1',
    'SLOAD',
    push(1),
    'ADD',
    'SWAP1',
    'SSTORE',
    ...['NUMBER', 'CALLER', 'SSTORE'],
    // balanceOf(caller) into memory 0..32 via STATICCALL (selector at 28..32, caller at 32..64)
    ...[push(0x70a08231n), push(0), 'MSTORE', 'CALLER', push(32), 'MSTORE'],
    ...[push(32), push(0), push(36), push(28), push(32), 'CALLDATALOAD', 'GAS', 'STATICCALL'],
    'ISZERO',
    to('fail'),
    'JUMPI',
    ...[push(0), 'MLOAD'],
    ...[...KEY, push(1), 'ADD', 'SLOAD', 'ADD'],
    ...[...KEY, push(2), 'ADD', 'SLOAD', 'ADD'],
    ...[push(0), 'MSTORE'],
    ...[...KEY, push(0x4e6f746564n), push(32), push(0), 'LOG2', 'STOP'],
    label('fail'),
    ...[push(0), push(0), 'REVERT'],
  ]);
}

/** The mixed workload's senders: keys derived from their index, funded with ether and tokens in the setup blocks. */
const SENDERS = 240;
const senderKey = (i: number) => keccak256(new TextEncoder().encode(`svc-node mgas bench sender ${i}`));

/**
 * A chain with an 8 M-gas limit: setup blocks (fund the senders, deploy the token and the ledger,
 * hand every sender tokens), then `warm + count` blocks filled to the limit with a mix of 60 % ERC-20 transfers
 * (a third of them to fresh holders) and 40 % ledger calls (half of them on fresh keys), signed by 240 senders.
 * The first `warm` mixed blocks go into the base datadir with the setup; the rest are timed. Sealed with Ethash at
 * the dev difficulty, as ETC's blocks are (an instant-seal chain also records its written keys, which ETC does not).
 */
export async function mixedChain(opts: { warm: number; count: number }): Promise<BenchChain> {
  const dir = join(BENCH_DIR, `mixed-ethash-${opts.warm}-${opts.count}`);
  const file = join(dir, 'blocks.bin');
  const firstFile = join(dir, 'first');
  if (!existsSync(file)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const { blocks, first } = await buildMixed(join(dir, 'source'), opts.warm, opts.count);
    writeBlocks(file, blocks);
    writeFileSync(firstFile, String(first));
    rmSync(join(dir, 'source'), { recursive: true, force: true });
  }
  return {
    name: 'mixed',
    dir,
    blocks: readBlocks(file),
    first: Number(readFileSync(firstFile, 'utf8')),
    open: { network: mixedNetwork, seal: 'ethash' },
  };
}

async function buildMixed(dataDir: string, warm: number, count: number) {
  const engine = await ChainEngine.open({
    dataDir,
    network: mixedNetwork,
    seal: 'ethash',
    powCacheDir: POW_CACHE_DIR,
    pool: { maxSize: 20_000, maxPerSender: 2_000 },
    mining: { coinbase: new Uint8Array(20).fill(0xcb) },
  });
  try {
    const common = engine.chain.txCommonAt(1n);
    const keys = Array.from({ length: SENDERS }, (_, i) => senderKey(i));
    const senders = keys.map((k) => new Address(privateToAddress(k)));
    const nonces = new Map<string, bigint>();
    const sign = async (key: Uint8Array, t: { to?: Address; data?: Uint8Array; gasLimit: bigint; value?: bigint }) => {
      const from = bytesToHex(privateToAddress(key));
      const nonce = nonces.get(from) ?? 0n;
      nonces.set(from, nonce + 1n);
      const raw = createLegacyTx({ nonce, gasPrice: GWEI, value: 0n, ...t }, { common })
        .sign(key)
        .serialize();
      await engine.pool.add(raw);
    };
    const mine = async () => {
      const [mined] = await engine.miner.mineBlocks(1);
      return mined!.block;
    };
    // Setup: ether for every sender, then the two contracts, then tokens for every sender.
    for (const s of senders) await sign(devKey, { to: s, gasLimit: 21_000n, value: 10n ** 18n });
    while (engine.pool.pendingCount > 0) await mine();
    const token = createContractAddress(devAddress, nonces.get(devAddress.toString())!);
    const tokenInit = concatBytes(hexToBytes(tokenArtifact.bytecode as `0x${string}`), word(10n ** 30n));
    await sign(devKey, { data: tokenInit, gasLimit: 1_500_000n });
    const ledger = createContractAddress(devAddress, nonces.get(devAddress.toString())!);
    await sign(devKey, { data: initCodeOf(ledgerRuntime()), gasLimit: 300_000n });
    for (const s of senders)
      await sign(devKey, {
        to: token,
        data: concatBytes(TRANSFER, word(s.bytes), word(10n ** 24n)),
        gasLimit: 80_000n,
      });
    while (engine.pool.pendingCount > 0) await mine();

    // The mixed blocks: enough transactions queued for one block at a time, the overflow carried to the next.
    let fresh = 0;
    let freshKey = 1_000_000n;
    let n = 0;
    const rnd = lcg(41);
    const mixed: number[] = [];
    while (mixed.length < warm + count) {
      while (engine.pool.pendingCount < 260) {
        const key = keys[n++ % SENDERS]!;
        const r = rnd();
        if (r < 0.6) {
          const holder = rnd() < 1 / 3 ? freshHolder(fresh++) : senders[Math.floor(rnd() * SENDERS)]!;
          const value = BigInt(1 + Math.floor(rnd() * 1000));
          await sign(key, {
            to: token,
            data: concatBytes(TRANSFER, word(holder.bytes), word(value)),
            gasLimit: 60_000n,
          });
        } else {
          const k = rnd() < 0.5 ? freshKey++ : BigInt(1_000_000 + Math.floor(rnd() * Number(freshKey - 1_000_000n)));
          await sign(key, { to: ledger, data: concatBytes(word(k * 4n), word(token.bytes)), gasLimit: 120_000n });
        }
      }
      const block = await mine();
      if (block.header.gasUsed < ETC_GAS_LIMIT - 130_000n)
        throw new Error(`block ${block.header.number} used only ${block.header.gasUsed} gas`);
      mixed.push(Number(block.header.number));
    }
    const blocks: Uint8Array[] = [];
    for (let i = 1n; i <= BigInt(mixed.at(-1)!); i++) blocks.push((await engine.chain.getBlock(i))!.serialize());
    return { blocks, first: mixed[warm]! };
  } finally {
    await engine.close();
  }
}

const freshHolder = (i: number) =>
  new Address(concatBytes(new Uint8Array(4).fill(0x6d), setLengthLeft(bigIntToBytes(BigInt(i + 1)), 16)));

/** A small deterministic generator: the same chain on every build. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
