/**
 * eth_estimateGas's answer for a plain value transfer, known without running it. eth_sendTransaction without `gas`
 * (the usual wallet and test-suite send of ether) estimates first, and the search otherwise runs the message twice
 * (at the cap, then at the gas it used) to learn a number every such transfer shares: the intrinsic gas.
 *
 * Taken only when the runs cannot answer otherwise (anything else goes the search's way, which stays the reference;
 * transfer-estimate.test.ts compares the two):
 * - a recipient, no data, no state or block overrides: the message runs no code unless the recipient has some;
 * - the recipient outside the precompile range (addresses below 2^16 there, present and future; a call to one runs
 *   it) and without code at the block;
 * - the cap at least the intrinsic gas. The cap already passed the affordability checks (`gasCap`), which are what
 *   else could make the run at the cap fail; a call refuses no sender (not one with code either, call.ts).
 * The run at the cap then uses exactly the intrinsic gas (a transaction-level transfer pays no new-account or value
 * charge, ETC has no calldata floor), and the search's next run, at that gas, succeeds: its answer.
 */
import type { Block } from '@ethereumjs/block';
import { KECCAK256_NULL, equalsBytes } from '@ethereumjs/util';
import { type CallMessage, type ChainEngine, inPrecompileRange } from '../../chain/index.js';
import { heldState } from '../block-ref.js';

/** A transaction's intrinsic gas without data or creation, in every fork this node runs (Frontier on). */
export const TRANSFER_GAS = 21_000n;

/** `TRANSFER_GAS` when `msg` is a plain transfer at `block` that the search would answer with it; else undefined. */
export async function plainTransferGas(
  engine: ChainEngine,
  block: Block,
  msg: CallMessage,
  cap: bigint,
): Promise<bigint | undefined> {
  const { to, data } = msg;
  if (to === undefined || (data !== undefined && data.length > 0) || msg.overrides !== undefined) return undefined;
  if (msg.accessList !== undefined || cap < TRANSFER_GAS || inPrecompileRange(to)) return undefined;
  const state = await heldState(engine.chain.stateAt(block.hash()));
  if (state === undefined) return undefined; // the search's run answers "not found"
  // The code hash comes with the account (often from the head's kept state), no code read.
  return equalsBytes(await state.getCodeHash(to), KECCAK256_NULL) ? TRANSFER_GAS : undefined;
}
