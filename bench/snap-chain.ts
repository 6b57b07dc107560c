/**
 * The serving chain of the snap-sync bench, built through the engine's own block production (untimed, cached in
 * the tmp dir by its sizes): a dev engine in this process (Ethash seal, as dev nodes that peer use).
 *
 * 1. Accounts: a small "spreader" contract sends 1 wei to `count` consecutive fresh addresses per call, one call
 *    filling a 30 M-gas block (~790 new accounts). One signed transaction per block instead of one per account:
 *    signing, pool admission and per-transaction execution were what made the old builder take 213 s per 50 k.
 * 2. Storage: `contracts` filler contracts whose constructors write `slotsPerContract` slots each.
 * 3. `onTop` blocks of one plain transfer each.
 *
 * A genesis allocation is not used: the syncing node builds the dev genesis from the same definition, and the
 * state must come from executed blocks (issue 26).
 *
 * The build is resumable: killed, it continues after the last stored block. A large one wants a bigger heap, e.g.
 * `nice -n 10 node --max-old-space-size=8192 --max-semi-space-size=32 --import tsx bench/snap-sync.ts --build-only`.
 * Rates: bench/results/state-heavy-blocks.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLegacyTx } from '@ethereumjs/tx';
import {
  Address,
  bigIntToBytes,
  concatBytes,
  createContractAddress,
  hexToBytes,
  setLengthLeft,
} from '@ethereumjs/util';
import { ChainEngine } from '../src/chain/engine/engine.js';
import { DEV_ACCOUNTS } from '../src/chain/networks/devAccounts.js';
import { fillerInitCode } from '../test/p2p/snap-fixtures.js';

export const GWEI = 1_000_000_000n;
export const devKeys = DEV_ACCOUNTS.map((a) => hexToBytes(a.privateKey as `0x${string}`));

/** The fixed prefix of fresh addresses: clear of precompiles and of the dev accounts. */
const FRESH_PREFIX = new Uint8Array(4).fill(0x5a);

/** The i-th fresh address: 0x5a5a5a5a followed by i in 16 bytes (the spreader computes the same as prefix + i). */
export const freshAddress = (i: number) =>
  new Address(concatBytes(FRESH_PREFIX, setLengthLeft(bigIntToBytes(BigInt(i)), 16)));

/** Gas of one spreader iteration: a cold CALL with value to a new account (2,600 + 9,000 + 25,000) and the loop. */
const GAS_PER_SPREAD = 36_700;
const SPREADER_TX_GAS = 29_500_000n;
/** New accounts per spreader call, with room for the call's own costs. */
export const ACCOUNTS_PER_CALL = Math.floor((Number(SPREADER_TX_GAS) - 40_000) / GAS_PER_SPREAD);

/**
 * Runtime of the spreader: calldata (start, count); for i in [start, start + count): CALL(gas 0, prefix·2^128 + i,
 * value 1). The gas stipend is enough for an account without code.
 */
function spreaderRuntime(): Uint8Array {
  const base = concatBytes(FRESH_PREFIX, new Uint8Array(16));
  return Uint8Array.from([
    ...[0x60, 0x00, 0x35, 0x60, 0x20, 0x35, 0x81, 0x01, 0x90], // start, count → [end, i]
    0x5b, // 0x09 loop:
    ...[0x81, 0x81, 0x10, 0x15, 0x60, 0x3c, 0x57], // if !(i < end) goto done
    ...[0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x00, 0x60, 0x01, 0x85], // ret/args 0, value 1, i
    0x73,
    ...base, // PUSH20 prefix·2^128
    ...[0x01, 0x60, 0x00, 0xf1, 0x50], // address = prefix + i; CALL with gas 0; drop the result
    ...[0x60, 0x01, 0x01, 0x60, 0x09, 0x56], // i + 1; goto loop
    0x5b, // 0x3c done:
    0x00,
  ]);
}

/** Init code that deploys `runtime` as is. */
function deployCode(runtime: Uint8Array): Uint8Array {
  const n = runtime.length;
  if (n > 0xff) throw new RangeError('runtime too long for this deployer');
  return concatBytes(Uint8Array.from([0x60, n, 0x60, 12, 0x60, 0x00, 0x39, 0x60, n, 0x60, 0x00, 0xf3]), runtime);
}

export interface ServingChainSizes {
  readonly accounts: number;
  readonly contracts: number;
  readonly slotsPerContract: number;
  readonly onTop: number;
}

/**
 * Trie caches of the building engine: big enough to hold every node of the 1 M-account state, so that a fresh
 * address's lookup (which must read the leaf its path runs into) is a memory hit instead of a LevelDB read. The
 * node's defaults (cache-limits.ts) are sized for a light node; at 250 k accounts they missed on most lookups.
 */
const BUILDER_CACHES = {
  trieNodes: 4_000_000,
  trieDecodedNodes: 200_000,
  // LevelDB's own block cache and memtable (native memory, no GC): the misses above and fewer, larger compactions.
  dbCacheBytes: 256 * 1024 * 1024,
  dbWriteBufferBytes: 32 * 1024 * 1024,
};

/** What the block at `number` (1-based) of the serving chain holds; undefined past its end. */
type Step =
  | { kind: 'spreader' }
  | { kind: 'accounts'; first: number; count: number }
  | { kind: 'contracts'; count: number }
  | { kind: 'transfer'; index: number };

/** The fixed block layout of the serving chain: a killed build resumes from its head by it. */
export function servingChainPlan(sizes: ServingChainSizes) {
  const contractGas = 60_000n + BigInt(sizes.slotsPerContract) * 22_300n;
  const contractsPerBlock = Math.max(1, Math.floor(29_000_000 / Number(contractGas)));
  const accountBlocks = Math.ceil(sizes.accounts / ACCOUNTS_PER_CALL);
  const contractBlocks = Math.ceil(sizes.contracts / contractsPerBlock);
  const lastBlock = 1 + accountBlocks + contractBlocks + sizes.onTop;
  const step = (number: number): Step | undefined => {
    if (number === 1) return { kind: 'spreader' };
    let i = number - 2;
    if (i < accountBlocks) {
      const first = i * ACCOUNTS_PER_CALL;
      return { kind: 'accounts', first, count: Math.min(ACCOUNTS_PER_CALL, sizes.accounts - first) };
    }
    i -= accountBlocks;
    if (i < contractBlocks)
      return { kind: 'contracts', count: Math.min(contractsPerBlock, sizes.contracts - i * contractsPerBlock) };
    i -= contractBlocks;
    return i < sizes.onTop ? { kind: 'transfer', index: i } : undefined;
  };
  return { contractGas, contractsPerBlock, accountBlocks, contractBlocks, lastBlock, step };
}

/**
 * Builds the serving chain into `<cacheDir>/source` unless a finished one is there; returns that datadir. A build
 * that was killed continues from the last block it stored (the layout is fixed by the sizes, recorded in
 * `<cacheDir>/sizes.json`; the senders' nonces are read from the state), so only the block in flight is lost.
 */
export async function buildServingChain(
  cacheDir: string,
  ethashDir: string,
  sizes: ServingChainSizes,
): Promise<string> {
  const sourceDir = join(cacheDir, 'source');
  if (existsSync(join(cacheDir, 'done'))) {
    process.stdout.write(`serving chain: cached in ${cacheDir}\n`);
    return sourceDir;
  }
  const sizesFile = join(cacheDir, 'sizes.json');
  const recorded = existsSync(sizesFile) ? readFileSync(sizesFile, 'utf8') : undefined;
  if (recorded !== JSON.stringify(sizes)) {
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(sizesFile, JSON.stringify(sizes));
  }
  const plan = servingChainPlan(sizes);
  const engine = await ChainEngine.open({
    dataDir: sourceDir,
    network: 'dev' as const,
    powCacheDir: ethashDir,
    pool: { maxSize: 2 * plan.contractsPerBlock + 100, maxPerSender: 2 * plan.contractsPerBlock + 10 },
    mining: { coinbase: new Uint8Array(20).fill(0xcb) },
    caches: BUILDER_CACHES,
  });
  const senders = DEV_ACCOUNTS.map((a) => hexToBytes(a.address as `0x${string}`));
  const headState = await engine.chain.stateAt('latest');
  const nonces = await Promise.all(senders.map((a) => headState!.getNonce(a)));
  const resumedAt = Number(engine.chain.getHead().header.number);
  if (resumedAt > 0) process.stdout.write(`serving chain: resuming after block ${resumedAt} of ${plan.lastBlock}\n`);
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  type Tx = { to?: Address; data?: Uint8Array; gasLimit: bigint; value: bigint };
  /** Mines one block of `txs`; with `sender`, all come from that dev account and must not run out of gas. */
  const mine = async (txs: Tx[], sender?: number) => {
    const common = engine.chain.txCommonAt(engine.chain.getHead().header.number + 1n);
    const raws = txs.map((t, i) => {
      const from = sender ?? i % devKeys.length;
      return createLegacyTx({ nonce: nonces[from]!++, gasPrice: GWEI, ...t }, { common })
        .sign(devKeys[from]!)
        .serialize();
    });
    await Promise.all(raws.map((raw) => engine.pool.add(raw)));
    const [mined] = await engine.miner.mineBlocks(1);
    const block = mined!.block;
    if (block.transactions.length !== txs.length)
      throw new Error(`block ${block.header.number} holds ${block.transactions.length} of ${txs.length}`);
    const gasAsked = txs.reduce((n, t) => n + t.gasLimit, 0n);
    // A call that spent its whole limit ran out of gas, and its accounts were not made.
    if (sender !== undefined && block.header.gasUsed >= gasAsked)
      throw new Error(`block ${block.header.number}: the transaction ran out of gas`);
  };
  let accountsMade = 0;
  const progress = (what: string) => {
    const s = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStarted);
    const rate = accountsMade > 0 ? `, ${(accountsMade / s).toFixed(0)} accounts/s` : '';
    process.stdout.write(
      `serving chain: ${what} (${s.toFixed(0)} s, cpu ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s${rate})\n`,
    );
  };
  try {
    const spreader = createContractAddress(new Address(senders[0]!), 0n);
    const initCode = fillerInitCode(sizes.slotsPerContract);
    for (let number = resumedAt + 1; number <= plan.lastBlock; number++) {
      const step = plan.step(number)!;
      switch (step.kind) {
        case 'spreader':
          await mine([{ data: deployCode(spreaderRuntime()), gasLimit: 200_000n, value: 0n }], 0);
          break;
        case 'accounts': {
          const data = concatBytes(
            setLengthLeft(bigIntToBytes(BigInt(step.first)), 32),
            setLengthLeft(bigIntToBytes(BigInt(step.count)), 32),
          );
          await mine([{ to: spreader, data, gasLimit: SPREADER_TX_GAS, value: BigInt(step.count) }], 0);
          accountsMade += step.count;
          const done = step.first + step.count;
          if ((number - 1) % 25 === 0 || done === sizes.accounts) progress(`${done}/${sizes.accounts} accounts`);
          break;
        }
        case 'contracts': {
          await mine(
            Array.from({ length: step.count }, () => ({ data: initCode, gasLimit: plan.contractGas, value: 0n })),
          );
          const done = (number - 2 - plan.accountBlocks) * plan.contractsPerBlock + step.count;
          if ((number - 2 - plan.accountBlocks) % 50 === 0 || done === sizes.contracts)
            progress(`${done}/${sizes.contracts} contracts`);
          break;
        }
        case 'transfer':
          await mine([{ to: freshAddress(step.index), gasLimit: 21_000n, value: 1n }]);
          break;
      }
    }
    progress(`${sizes.onTop} blocks on top, head ${engine.chain.getHead().header.number}`);
  } finally {
    await engine.close();
  }
  writeFileSync(join(cacheDir, 'done'), new Date().toISOString());
  return sourceDir;
}
