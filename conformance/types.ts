/** The two vector formats the runner replays (see vectors/README.md) and the outcome of one case. */

export interface VectorAccount {
  readonly balance: string;
  readonly nonce: string;
  readonly code: string;
  readonly storage: Readonly<Record<string, string>>;
}

export type Accounts = Readonly<Record<string, VectorAccount>>;

export interface BlockchainTestCase {
  readonly network: string;
  readonly sealEngine?: string;
  readonly genesisBlockHeader: Readonly<Record<string, string>>;
  readonly pre: Accounts;
  readonly blocks: ReadonlyArray<{
    readonly rlp: string;
    readonly blockHeader?: Readonly<Record<string, string>>;
    readonly expectException?: string;
    readonly chainname?: string;
  }>;
  readonly lastblockhash: string;
  readonly postState?: Accounts;
  readonly postStateHash?: string;
}

export interface StateTestResult {
  readonly hash: string;
  readonly logs: string;
  /** Absent in the older format: the transaction is signed from the test's secretKey (state-transaction.ts). */
  readonly txbytes?: string;
  readonly indexes: { readonly data: number; readonly gas: number; readonly value: number };
  readonly expectException?: string;
}

export interface StateTestCase {
  readonly env: Readonly<Record<string, string>>;
  readonly pre: Accounts;
  readonly transaction: unknown;
  readonly post: Readonly<Record<string, readonly StateTestResult[]>>;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseOutcome {
  /** `<file>::<case>` (state tests: `<test>_<fork>_d<data>g<gas>v<value>`). */
  readonly id: string;
  /** The file's folder, relative to the path the run was given. */
  readonly folder: string;
  readonly status: CaseStatus;
  /** failed: the first difference; skipped: why. */
  readonly reason?: string;
  /** passed: why the node refused each block the vector expects invalid (its error message), in order. */
  readonly rejections?: readonly string[];
  /** passed, Bastion mode: what the comparison left out and why (or how a vector's figure was read). */
  readonly leftOut?: readonly string[];
  /** passed: how the case's figures were read, when not as the vector gives them (counted, not printed per case). */
  readonly note?: string;
}

/** A mismatch: the first one ends the case. */
export class Difference extends Error {}

export function expectEqual(
  what: string,
  actual: unknown,
  expected: unknown,
  same = (a: unknown, b: unknown) => a === b,
): void {
  if (!same(actual, expected)) throw new Difference(`${what}: got ${String(actual)}, expected ${String(expected)}`);
}
