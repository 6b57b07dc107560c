/**
 * The numbers and times of a simulation's blocks (execution-apis docs, "Default block values"): unset, a block is
 * the previous + 1 and 12 seconds later; numbers and times must rise (-38020, -38021); a gap in the
 * numbers is filled with empty blocks, each 12 seconds after the one before, and they count towards the limit.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { SimulateError, type SimulatedBlockInput } from './simulate-types.js';

/** Seconds between simulated blocks when the request sets no time (geth's and Anvil's choice). */
export const SIMULATED_BLOCK_TIME = 12n;

export interface PlannedBlock {
  readonly number: bigint;
  readonly timestamp: bigint;
  /** Undefined for an empty block filling a gap. */
  readonly input?: SimulatedBlockInput;
}

export function planBlocks(
  base: BlockHeader,
  inputs: readonly SimulatedBlockInput[],
  maxBlocks: number,
): PlannedBlock[] {
  const tooMany = () =>
    new SimulateError(
      'clientLimit',
      `too many blocks: a simulation may hold ${maxBlocks} blocks, gaps included (network.rpc.call.simulate-max-blocks)`,
    );
  if (inputs.length > maxBlocks) throw tooMany();
  const out: PlannedBlock[] = [];
  let number = base.number;
  let timestamp = base.timestamp;
  for (const input of inputs) {
    const wanted = input.env?.number ?? number + 1n;
    if (wanted <= number) {
      throw new SimulateError('blockNumberOrder', `block numbers must be in order: ${wanted} <= ${number}`);
    }
    if (BigInt(out.length) + (wanted - number) > BigInt(maxBlocks)) throw tooMany();
    for (let gap = number + 1n; gap < wanted; gap++) {
      timestamp += SIMULATED_BLOCK_TIME;
      out.push({ number: gap, timestamp });
    }
    const time = input.env?.timestamp ?? timestamp + SIMULATED_BLOCK_TIME;
    if (time <= timestamp) {
      throw new SimulateError('blockTimestampOrder', `block timestamps must be in order: ${time} <= ${timestamp}`);
    }
    number = wanted;
    timestamp = time;
    out.push({ number, timestamp, input });
  }
  return out;
}

/** eth_callMany's bundles: each block's number and time as the caller set them. */
export function givenBlocks(inputs: readonly SimulatedBlockInput[], maxBlocks: number): PlannedBlock[] {
  if (inputs.length > maxBlocks) {
    throw new SimulateError(
      'clientLimit',
      `too many bundles: a request may hold ${maxBlocks} (network.rpc.call.simulate-max-blocks)`,
    );
  }
  return inputs.map((input) => {
    const { number, timestamp } = input.env ?? {};
    if (number === undefined || timestamp === undefined) throw new Error('a bundle without its number and time');
    return { number, timestamp, input };
  });
}
