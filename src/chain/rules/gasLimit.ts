/** Gas limit bounds between consecutive blocks (Yellow Paper §4.3.4, unchanged on ETC). */

export const GAS_LIMIT_BOUND_DIVISOR = 1024n;
export const MIN_GAS_LIMIT = 5000n;
/**
 * The largest gas limit a header may carry, 2^63 − 1: geth and core-geth refuse more (their gas counters are
 * signed 64-bit), so a chain that accepted such a header would split from them.
 */
export const MAX_GAS_LIMIT = 2n ** 63n - 1n;

/** Whether `gasLimit` may follow `parentGasLimit`: |Δ| < parent/1024 and at least 5000. */
export function isGasLimitValid(gasLimit: bigint, parentGasLimit: bigint): boolean {
  const delta = gasLimit > parentGasLimit ? gasLimit - parentGasLimit : parentGasLimit - gasLimit;
  return delta < parentGasLimit / GAS_LIMIT_BOUND_DIVISOR && gasLimit >= MIN_GAS_LIMIT;
}

/** Lowest and highest valid child gas limit (inclusive). */
export function gasLimitBounds(parentGasLimit: bigint): { min: bigint; max: bigint } {
  const room = parentGasLimit / GAS_LIMIT_BOUND_DIVISOR - 1n;
  const min = parentGasLimit - room;
  return { min: min > MIN_GAS_LIMIT ? min : MIN_GAS_LIMIT, max: parentGasLimit + room };
}

/**
 * Child gas limit moving from the parent's toward `target` by the largest allowed step, as a miner
 * does (dev keeps target = current limit, so it stays constant).
 */
export function nextGasLimit(parentGasLimit: bigint, target: bigint): bigint {
  const { min, max } = gasLimitBounds(parentGasLimit);
  if (target > max) return max;
  if (target < min) return min;
  return target;
}
