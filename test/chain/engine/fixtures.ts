/** Shared set-up for the engine tests and bench: a dev chain without proof of work in a temp dir. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, hexToBytes } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { Blockchain } from '../../../src/chain/blockchain/blockchain.js';
import { engineNetworkOf, etcEngineRules } from '../../../src/chain/engine/engine-adapters.js';
import { dev, DEV_ACCOUNTS } from '../../../src/chain/networks/index.js';
import type { StateRetentionOptions } from '../../../src/chain/state/retention.js';

export const keys = DEV_ACCOUNTS.map((a) => hexToBytes(a.privateKey as `0x${string}`));
export const addresses = DEV_ACCOUNTS.map((a) => hexToBytes(a.address.toLowerCase() as `0x${string}`));

export function tempDir(prefix = 'engine-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `flatState`: assemble as the dev node's miner does (exec/flat-state.ts). */
export function openDevChain(
  dataDir: string,
  opts: { flatState?: boolean; retention?: StateRetentionOptions } = {},
): Promise<Blockchain> {
  return Blockchain.open({
    dataDir,
    network: engineNetworkOf(dev),
    rules: etcEngineRules(dev),
    noProof: true,
    ...opts,
  });
}

export interface TxSpec {
  readonly from: number;
  readonly nonce: bigint;
  readonly to?: Uint8Array;
  readonly value?: bigint;
  readonly data?: Uint8Array;
  readonly gasLimit?: bigint;
  readonly gasPrice?: bigint;
}

export function signedTx(
  chain: Blockchain,
  spec: TxSpec,
  atBlock = chain.getHead().header.number + 1n,
): TypedTransaction {
  return createLegacyTx(
    {
      nonce: spec.nonce,
      to: spec.to === undefined ? undefined : new Address(spec.to),
      value: spec.value ?? 0n,
      data: spec.data ?? new Uint8Array(0),
      gasLimit: spec.gasLimit ?? 21_000n,
      gasPrice: spec.gasPrice ?? 1_000_000_000n,
    },
    { common: chain.txCommonAt(atBlock) },
  ).sign(keys[spec.from]);
}

/** Assembles a block on the head (or `parentHash`), seals it with a dummy seal and imports it. */
export async function mine(
  chain: Blockchain,
  txs: TypedTransaction[],
  opts: { parentHash?: Uint8Array; coinbase?: Uint8Array; timestamp?: bigint } = {},
) {
  const parent = opts.parentHash ?? chain.getHead().hash();
  const parentHeader = (await chain.getHeader(parent))!;
  const assembled = await chain.assemble({
    parentHash: parent,
    transactions: txs,
    coinbase: opts.coinbase ?? new Uint8Array(20).fill(0xcb),
    timestamp: opts.timestamp ?? parentHeader.timestamp + 13n,
  });
  const block = assembled.seal(new Uint8Array(8), new Uint8Array(32));
  const result = await chain.importBlock(block);
  return { assembled, block, result };
}

/** The Counter test contract (test/fixtures/contracts): its ABI encoder and a deployment by dev account 0. */
const CounterArtifact = JSON.parse(
  readFileSync(new URL('../../fixtures/contracts/Counter.json', import.meta.url), 'utf8'),
) as { abi: string[]; bytecode: string };
export const counterAbi = new Interface(CounterArtifact.abi);
export const encodeCounterCall = (name: string, args: unknown[] = []) =>
  hexToBytes(counterAbi.encodeFunctionData(name, args) as `0x${string}`);

export const counterDeployData = (initial: bigint) =>
  hexToBytes((CounterArtifact.bytecode + counterAbi.encodeDeploy([initial]).slice(2)) as `0x${string}`);

/** Deploys Counter(initial) in a block of its own; returns its address. */
export async function deployCounter(chain: Blockchain, initial = 5n): Promise<Uint8Array> {
  const data = counterDeployData(initial);
  const { assembled } = await mine(chain, [signedTx(chain, { from: 0, nonce: 0n, data, gasLimit: 600_000n })]);
  return assembled.receipts[0]!.contractAddress!;
}
