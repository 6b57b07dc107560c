/**
 * Bastion mode for precompile vectors (geth's format: an array of { Input, Expected | ExpectedError, Gas, Name }, as
 * EIP-2537 and EIP-7951 publish them): on an `ETC_Bastion` chain, each input goes to the precompile by eth_call
 * (output, or a failure where the vector expects an error) and as a mined transaction (its gasUsed minus the
 * intrinsic gas is the precompile's price; a failure takes all the gas it was given).
 * The precompile's address comes from the file: EIP-2537 names its files after the operation, EIP-7951 has one file.
 */
import { basename, dirname } from 'node:path';
import { quantity, sameBytes, toQuantity } from './hex.js';
import { RpcCallError } from '../test/helpers/rpc.js';
import type { RpcClient } from './rpc.js';
import { Difference, expectEqual } from './types.js';

export interface PrecompileVector {
  readonly Input: string;
  readonly Expected?: string;
  readonly ExpectedError?: string;
  readonly Gas?: number;
  readonly Name: string;
}

const BY_FILE: Readonly<Record<string, number>> = {
  add_G1_bls: 0x0b,
  mul_G1_bls: 0x0c,
  msm_G1_bls: 0x0c,
  add_G2_bls: 0x0d,
  mul_G2_bls: 0x0e,
  msm_G2_bls: 0x0e,
  pairing_check_bls: 0x0f,
  map_fp_to_G1_bls: 0x10,
  map_fp2_to_G2_bls: 0x11,
  modexp_eip7883: 0x05,
};

/** EIP-7951's price; its test-vectors.json still gives 3450 (RIP-7212's), which the EIP's text replaced. */
export const P256_GAS = 6900;

export interface PrecompileFile {
  readonly address: number;
  /** The gas every vector of the file is held to, when the vector's own figure is out of date. */
  readonly gas?: number;
  readonly note?: string;
}

/** Which precompile a vector file is for, or undefined when the file name says nothing the runner knows. */
export function precompileOf(file: string): PrecompileFile | undefined {
  const name = basename(file, '.json');
  if (basename(dirname(file)) === 'eip-7951' && name === 'test-vectors')
    return { address: 0x100, gas: P256_GAS, note: `gas held to EIP-7951's ${P256_GAS}, not the file's 3450` };
  const address = BY_FILE[name.replace(/^fail-/, '')];
  return address === undefined ? undefined : { address };
}

export function isPrecompileVectors(content: unknown): content is PrecompileVector[] {
  return Array.isArray(content) && content.length > 0 && content.every((v) => typeof v?.Input === 'string');
}

const SENDER = '0x00000000000000000000000000000000000b0057';
const TX_GAS = 5_000_000n;
/** Below the pool's 256 pending transactions per sender. */
const PER_BLOCK = 200;

const intrinsicGas = (input: string): bigint => {
  let gas = 21_000n;
  for (let i = 0; i < input.length; i += 2) gas += input.slice(i, i + 2) === '00' ? 4n : 16n;
  return gas;
};

/** A fresh ETC_Bastion chain with one funded sender. */
export async function setPrecompileChain(rpc: RpcClient): Promise<void> {
  const params = {
    params: { fork: 'ETC_Bastion', chainID: '0x01' },
    sealEngine: 'NoProof',
    genesis: {
      author: `0x${'00'.repeat(20)}`,
      difficulty: '0x020000',
      gasLimit: toQuantity(TX_GAS * BigInt(PER_BLOCK + 1)),
      extraData: '0x00',
      timestamp: '0x00',
      nonce: '0x0000000000000000',
      mixHash: `0x${'00'.repeat(32)}`,
    },
    accounts: { [SENDER]: { balance: toQuantity(10n ** 30n) } },
  };
  expectEqual('test_setChainParams', await rpc.call('test_setChainParams', [params]), true);
}

/**
 * Runs `vectors` (one file) against the precompile; returns one outcome per vector, by name: undefined when it
 * passed, else the first difference. A block's transactions, then their receipts, then the eth_calls go as one
 * JSON-RPC batch each: the same calls, one HTTP exchange per chunk instead of one per call.
 */
export async function runPrecompileVectors(
  rpc: RpcClient,
  file: PrecompileFile,
  vectors: readonly PrecompileVector[],
): Promise<Array<string | undefined>> {
  const to = `0x${file.address.toString(16).padStart(40, '0')}`;
  const outcomes: Array<string | undefined> = [];
  for (let from = 0; from < vectors.length; from += PER_BLOCK) {
    const chunk = vectors.slice(from, from + PER_BLOCK);
    const sent = await rpc.batch<string>(
      chunk.map((v) => [
        'eth_sendUnsignedTransaction',
        [{ from: SENDER, to, input: `0x${v.Input}`, gas: toQuantity(TX_GAS), gasPrice: '0x1', type: '0x0' }],
      ]),
    );
    const hashes = sent.map((hash) => {
      if (hash instanceof RpcCallError) throw hash;
      return hash;
    });
    await rpc.call('test_mineBlocks', [1]);
    const receipts = await rpc.batch<Receipt | null>(hashes.map((hash) => ['eth_getTransactionReceipt', [hash]]));
    const calls = await rpc.batch<string>(
      chunk.map((v) => ['eth_call', [{ from: SENDER, to, input: `0x${v.Input}`, gas: toQuantity(TX_GAS) }, 'latest']]),
    );
    for (const [i, v] of chunk.entries()) {
      try {
        checkVector(file, v, receipts[i]!, calls[i]!);
        outcomes.push(undefined);
      } catch (err) {
        if (!(err instanceof Difference)) throw err;
        outcomes.push(err.message);
      }
    }
  }
  return outcomes;
}

type Receipt = { status: string; gasUsed: string };

/** One vector judged on its mined transaction's receipt and its eth_call's answer (a result or an error). */
function checkVector(
  file: PrecompileFile,
  v: PrecompileVector,
  receipt: Receipt | null | RpcCallError,
  call: string | RpcCallError,
): void {
  if (receipt instanceof RpcCallError) throw receipt;
  if (receipt === null) throw new Difference('transaction not mined');
  const used = quantity(receipt.gasUsed) - intrinsicGas(v.Input);
  if (v.ExpectedError !== undefined) {
    if (!(call instanceof RpcCallError))
      throw new Difference(`eth_call succeeded, but the vector expects "${v.ExpectedError}"`);
    expectEqual('status', quantity(receipt.status), 0n);
    expectEqual('gas (a failure takes all)', quantity(receipt.gasUsed), TX_GAS);
    return;
  }
  if (call instanceof RpcCallError) throw call;
  expectEqual('output', call, `0x${v.Expected ?? ''}`, (a, b) => sameBytes(a as string, b as string));
  expectEqual('status', quantity(receipt.status), 1n);
  const gas = file.gas ?? v.Gas;
  if (gas !== undefined) expectEqual('gas', used, BigInt(gas));
}
