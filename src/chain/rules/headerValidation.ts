/**
 * Header checks that need only the parent header (no state, no PoW): the block importer runs these
 * before executing a block; the seal is checked separately by the Ethash verifier.
 */
import { bytesToHex, equalsBytes, KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import type { ChainRules } from './chainRules.js';
import { calcDifficulty } from './difficulty.js';
import { isGasLimitValid, MAX_GAS_LIMIT } from './gasLimit.js';

/** The header fields these checks read (an @ethereumjs/block `BlockHeader` fits). */
export interface HeaderLike {
  readonly parentHash: Uint8Array;
  readonly uncleHash: Uint8Array;
  readonly number: bigint;
  readonly timestamp: bigint;
  readonly difficulty: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly extraData: Uint8Array;
}

export interface ParentHeaderLike extends HeaderLike {
  /** The parent's own hash (a BlockHeader has it). */
  hash(): Uint8Array;
}

export type HeaderErrorCode =
  | 'wrong-parent-hash'
  | 'wrong-number'
  | 'timestamp-not-after-parent'
  | 'timestamp-in-future'
  | 'extra-data-too-long'
  | 'gas-limit-above-max'
  | 'gas-limit-out-of-bounds'
  | 'gas-used-above-limit'
  | 'wrong-difficulty';

export class InvalidHeaderError extends Error {
  constructor(
    readonly code: HeaderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidHeaderError';
  }
}

export function hasUncles(header: Pick<HeaderLike, 'uncleHash'>): boolean {
  return !equalsBytes(header.uncleHash, KECCAK256_RLP_ARRAY);
}

/** The difficulty `rules` demand of a child of `parent` at `timestamp`. */
export function expectedDifficulty(rules: ChainRules, parent: HeaderLike, timestamp: bigint): bigint {
  return calcDifficulty(
    rules.difficulty,
    { number: parent.number, timestamp: parent.timestamp, difficulty: parent.difficulty, hasUncles: hasUncles(parent) },
    timestamp,
  );
}

/**
 * All failed checks of `header` against `parent` (empty = valid). `nowSeconds` enables the
 * "at most 15 s in the future" check; omit it when replaying history.
 */
export function headerErrors(
  rules: ChainRules,
  header: HeaderLike,
  parent: ParentHeaderLike,
  nowSeconds?: bigint,
): InvalidHeaderError[] {
  const errors: InvalidHeaderError[] = [];
  const fail = (code: HeaderErrorCode, message: string) => errors.push(new InvalidHeaderError(code, message));
  const parentHash = parent.hash();
  if (!equalsBytes(header.parentHash, parentHash)) {
    fail('wrong-parent-hash', `parent hash ${bytesToHex(header.parentHash)} is not ${bytesToHex(parentHash)}`);
  }
  if (header.number !== parent.number + 1n) {
    fail('wrong-number', `block number ${header.number} does not follow parent ${parent.number}`);
  }
  if (header.timestamp <= parent.timestamp) {
    fail('timestamp-not-after-parent', `timestamp ${header.timestamp} is not after the parent's ${parent.timestamp}`);
  }
  if (nowSeconds !== undefined && header.timestamp > nowSeconds + rules.allowedFutureSeconds) {
    fail(
      'timestamp-in-future',
      `timestamp ${header.timestamp} is more than ${rules.allowedFutureSeconds} s ahead of ${nowSeconds}`,
    );
  }
  if (header.extraData.length > rules.maxExtraDataSize) {
    fail(
      'extra-data-too-long',
      `extraData is ${header.extraData.length} bytes, at most ${rules.maxExtraDataSize} allowed`,
    );
  }
  if (header.gasLimit > MAX_GAS_LIMIT) {
    fail(
      'gas-limit-above-max',
      `gas limit ${header.gasLimit} exceeds the maximum 2^63 − 1 = ${MAX_GAS_LIMIT} (header rule gas-limit-above-max)`,
    );
  }
  if (!isGasLimitValid(header.gasLimit, parent.gasLimit)) {
    fail(
      'gas-limit-out-of-bounds',
      `gas limit ${header.gasLimit} may differ from the parent's ${parent.gasLimit} by less than 1/1024 and be at least 5000`,
    );
  }
  if (header.gasUsed > header.gasLimit) {
    fail('gas-used-above-limit', `gas used ${header.gasUsed} exceeds the gas limit ${header.gasLimit}`);
  }
  const difficulty = expectedDifficulty(rules, parent, header.timestamp);
  if (header.difficulty !== difficulty) {
    fail('wrong-difficulty', `difficulty ${header.difficulty} should be ${difficulty}`);
  }
  return errors;
}

/** Throws the first `InvalidHeaderError` of `headerErrors`, if any. */
export function validateHeader(
  rules: ChainRules,
  header: HeaderLike,
  parent: ParentHeaderLike,
  nowSeconds?: bigint,
): void {
  const [first] = headerErrors(rules, header, parent, nowSeconds);
  if (first !== undefined) throw first;
}

/** Uncle count and depth rules of one block (ancestry and duplicates need chain data: the importer's job). */
export function uncleErrors(rules: ChainRules, blockNumber: bigint, uncleNumbers: readonly bigint[]): string[] {
  const errors: string[] = [];
  if (uncleNumbers.length > rules.maxUncles)
    errors.push(`${uncleNumbers.length} uncles, at most ${rules.maxUncles} allowed`);
  for (const n of uncleNumbers) {
    const depth = blockNumber - n;
    if (depth < 1n || depth > rules.maxUncleDepth)
      errors.push(`uncle ${n} is ${depth} generations from block ${blockNumber}; 1..${rules.maxUncleDepth} allowed`);
  }
  return errors;
}
