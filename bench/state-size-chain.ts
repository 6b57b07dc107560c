/**
 * The chain of the state-size bench (issue 39): a dev network whose genesis allocation holds the accounts and the
 * storage contracts with their slots, then churn blocks through the engine's own block production.
 *
 * Why a genesis allocation and not executed blocks (bench/snap-chain.ts): building 1 M accounts through blocks took
 * ~87 min here (bench/results/state-heavy-blocks.md). What this bench measures is the datadir after churn, and the
 * trie nodes of a state are the same whether the state came from an allocation or from blocks; only the ~1,300
 * account-making blocks (their bodies, receipts and intermediate states) are missing from the history, which the
 * report says. The churn blocks are real: signed transactions, the pool, the miner (Ethash seal), ETC rules.
 */
import type { Block } from '@ethereumjs/block';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, bigIntToBytes, concatBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import type { ChainEngine } from '../src/chain/engine/engine.js';
import { dev } from '../src/chain/networks/dev.js';
import { DEV_ACCOUNT_BALANCE, DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import type { GenesisAccount, NetworkDefinition } from '../src/chain/networks/types.js';

export interface StateSizes {
  readonly accounts: number;
  readonly slots: number;
  readonly slotsPerContract: number;
}

/** Fixed prefixes keep the bench's addresses clear of precompiles, dev accounts and each other. */
const ACCOUNT_PREFIX = new Uint8Array(4).fill(0x5a);
const CONTRACT_PREFIX = new Uint8Array(4).fill(0x5c);
const indexed = (prefix: Uint8Array, i: number) => concatBytes(prefix, setLengthLeft(bigIntToBytes(BigInt(i)), 16));
export const accountAddress = (i: number) => indexed(ACCOUNT_PREFIX, i);
export const contractAddress = (i: number) => indexed(CONTRACT_PREFIX, i);
export const slotKey = (j: number) => setLengthLeft(bigIntToBytes(BigInt(j)), 32);
export const contractCount = (s: StateSizes) => Math.ceil(s.slots / s.slotsPerContract);

/**
 * Runtime of a storage contract. 32 bytes of calldata: return SLOAD(calldata[0]) (the eth_call read). Otherwise
 * calldata is (slot, value) pairs, each stored with SSTORE (the churn's writes).
 */
export const STORAGE_RUNTIME = Uint8Array.from([
  ...[0x36, 0x60, 0x20, 0x14, 0x60, 0x21, 0x57], // if calldatasize == 32 goto read
  ...[0x60, 0x00], // i = 0
  0x5b, // 0x09 loop:
  ...[0x80, 0x36, 0x11, 0x15, 0x60, 0x1f, 0x57], // if !(calldatasize > i) goto done
  ...[0x80, 0x60, 0x20, 0x01, 0x35, 0x81, 0x35, 0x55], // SSTORE(calldata[i], calldata[i + 32])
  ...[0x60, 0x40, 0x01, 0x60, 0x09, 0x56], // i += 64; goto loop
  ...[0x5b, 0x00], // 0x1f done: STOP
  ...[0x5b, 0x60, 0x00, 0x35, 0x54, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3], // 0x21 read: return SLOAD
]);

/** Deterministic pseudo-random numbers (mulberry32): the before and after runs churn the same blocks. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A nonzero value of up to 8 bytes (a balance or a slot's content; sizes as counters and amounts have). */
const someValue = (next: () => number) => BigInt(Math.floor(next() * 2 ** 52) + 1) * 1_000n;

/** The allocation: dev accounts, `accounts` plain accounts, the storage contracts holding `slots` slots in all. */
export function stateAlloc(sizes: StateSizes): GenesisAccount[] {
  const next = rng(39);
  const alloc: GenesisAccount[] = DEV_ACCOUNTS.map((a) => ({
    address: hexToBytes(a.address as `0x${string}`),
    balance: DEV_ACCOUNT_BALANCE,
  }));
  for (let i = 0; i < sizes.accounts; i++) alloc.push({ address: accountAddress(i), balance: someValue(next) });
  const contracts = contractCount(sizes);
  for (let c = 0; c < contracts; c++) {
    const first = c * sizes.slotsPerContract;
    const count = Math.min(sizes.slotsPerContract, sizes.slots - first);
    const storage: [Uint8Array, Uint8Array][] = [];
    for (let j = 0; j < count; j++) storage.push([slotKey(j), bigIntToBytes(someValue(next))]);
    alloc.push({ address: contractAddress(c), balance: 0n, nonce: 1n, code: STORAGE_RUNTIME, storage });
  }
  return alloc;
}

/**
 * The dev network with the bench's allocation (another genesis, so a datadir of it opens only with this). With the
 * state root the build gave, a reopen checks the genesis by it instead of building the allocation's state again.
 */
export function stateSizeNetwork(sizes: StateSizes, stateRoot?: Uint8Array): NetworkDefinition {
  const genesis = { ...dev.genesis, loadAlloc: async () => stateAlloc(sizes) };
  return { ...dev, genesis: stateRoot === undefined ? genesis : { ...genesis, expectedStateRoot: stateRoot } };
}

export interface ChurnOptions {
  readonly blocks: number;
  readonly transfersPerBlock: number;
  readonly writeTxsPerBlock: number;
  readonly slotsPerWriteTx: number;
  readonly onProgress?: (done: number) => void;
  /** Each mined block, before the next is built (the importing engine's turn). */
  readonly onBlock?: (block: Block) => Promise<void>;
}

const GWEI = 1_000_000_000n;
const devKeys = DEV_ACCOUNTS.map((a) => hexToBytes(a.privateKey as `0x${string}`));

/**
 * Mines `blocks` churn blocks on the engine's head: each holds plain transfers of 1 wei to random existing accounts
 * and calls writing random slots of random storage contracts with new values, from the dev accounts in turn.
 */
export async function churn(engine: ChainEngine, sizes: StateSizes, opts: ChurnOptions): Promise<void> {
  const next = rng(2000 + Number(engine.chain.getHead().header.number));
  const senders = DEV_ACCOUNTS.map((a) => hexToBytes(a.address as `0x${string}`));
  const head = await engine.chain.stateAt('latest');
  const nonces = await Promise.all(senders.map((a) => head!.getNonce(a)));
  const contracts = contractCount(sizes);
  const pick = (n: number) => Math.floor(next() * n);
  let sender = 0;
  const sign = (t: { to: Uint8Array; value: bigint; data?: Uint8Array; gasLimit: bigint }) => {
    const common = engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
    const from = sender++ % devKeys.length;
    const tx = createLegacyTx({ nonce: nonces[from]!++, gasPrice: GWEI, ...t, to: new Address(t.to) }, { common });
    return tx.sign(devKeys[from]!).serialize();
  };
  for (let b = 0; b < opts.blocks; b++) {
    const raws: Uint8Array[] = [];
    for (let i = 0; i < opts.transfersPerBlock; i++)
      raws.push(sign({ to: accountAddress(pick(Math.max(1, sizes.accounts))), value: 1n, gasLimit: 21_000n }));
    for (let i = 0; i < (contracts > 0 ? opts.writeTxsPerBlock : 0); i++) {
      const c = pick(contracts);
      const inContract = Math.min(sizes.slotsPerContract, sizes.slots - c * sizes.slotsPerContract);
      const pairs: Uint8Array[] = [];
      for (let k = 0; k < opts.slotsPerWriteTx; k++)
        pairs.push(slotKey(pick(inContract)), setLengthLeft(bigIntToBytes(someValue(next)), 32));
      const data = concatBytes(...pairs);
      raws.push(sign({ to: contractAddress(c), value: 0n, data, gasLimit: 60_000n + 25_000n * BigInt(pairs.length) }));
    }
    await Promise.all(raws.map((raw) => engine.pool.add(raw)));
    const [mined] = await engine.miner.mineBlocks(1);
    const block = mined!.block;
    if (block.transactions.length !== raws.length)
      throw new Error(`block ${block.header.number} holds ${block.transactions.length} of ${raws.length}`);
    await opts.onBlock?.(block);
    opts.onProgress?.(b + 1);
  }
}
