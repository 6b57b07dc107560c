/**
 * The execution header of a block assembly (the header its transactions run under) as a copy of the previous
 * assembly's, instead of a run of the library's constructor (~15-25 µs a header: a Common copy, a dozen EIP lookups,
 * the DAO rule's hardfork walk; perf of a one-transaction dev block). From one dev block to the next only the parent
 * hash, number, timestamp and difficulty change; the rest (coinbase, gas limit, extra data, uncle hash, the empty
 * roots) is the same, which is checked here field by field, and anything else gets the library's header.
 *
 * What the constructor derives from those four fields is covered: their types and the parent hash's length (checked
 * here), EIP-1559's default base fee, which depends on the number (copies only under rules without EIP-1559), the
 * DAO rule's extra data in the ten blocks from the DAO fork (copies only outside them), and the extra data's length
 * check of proof-of-work rules, which depends on the number being above 0 (copies only above it). Copies are made
 * only from a header under the same Common object (the rules of the block's height, view.commonAt) and of the same
 * class, and proven before use, as header-run.ts does: the first copy of each class is compared with the library's
 * header from the same data (own fields, encoding, hash), and copies are used only once one agreed.
 * test/chain/assembly/execution-header.test.ts compares copies with the library's headers.
 */
import type { BlockHeader, HeaderData } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { equalsBytes } from '@ethereumjs/util';
import { ProvenCopies, type Writable } from './proven-copies.js';

/** The execution header's data as the assembly makes it (assembler.ts `env`). */
export interface ExecutionData {
  readonly parentHash: Uint8Array;
  readonly uncleHash: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly difficulty: bigint;
  readonly number: bigint;
  readonly gasLimit: bigint;
  readonly timestamp: bigint;
  readonly extraData: Uint8Array;
}

/** Per Common: whether its rules let a copy stand for the library's header (see the top of this file). */
interface Rules {
  readonly copies: boolean;
  readonly daoBlock: bigint | null;
}
const rulesOf = new WeakMap<Common, Rules>();

export class ExecutionHeaders {
  /** The latest header made, with the Common and the kind of header (`key`) it was made for. */
  private template: { header: BlockHeader; common: Common; key: string } | undefined;
  private readonly copies = new ProvenCopies();

  /**
   * `key` names the kind of header `build` makes (with or without the ECIP-1097 field): copies are made only of a
   * header of the same kind, under the same `common`.
   */
  header(common: Common, key: string, data: ExecutionData, build: (data: HeaderData) => BlockHeader): BlockHeader {
    const template = this.template;
    const copyFrom =
      template !== undefined &&
      template.common === common &&
      template.key === key &&
      copyable(rulesFor(common), template.header, data)
        ? template.header
        : undefined;
    const made = copyFrom === undefined ? build(data) : this.copyOrBuild(copyFrom, data, build);
    this.template = { header: made, common, key };
    return made;
  }

  private copyOrBuild(template: BlockHeader, data: ExecutionData, build: (d: HeaderData) => BlockHeader): BlockHeader {
    return this.copies.copy(template, data, withExecutionFields, () => build(data));
  }
}

function withExecutionFields(copy: Writable, data: ExecutionData): void {
  copy.parentHash = data.parentHash;
  copy.difficulty = data.difficulty;
  copy.number = data.number;
  copy.timestamp = data.timestamp;
}

/** `data` differs from `template` only where a copy may (see the top of this file). */
function copyable(rules: Rules, template: BlockHeader, data: ExecutionData): boolean {
  return (
    rules.copies &&
    (rules.daoBlock === null || data.number < rules.daoBlock || data.number > rules.daoBlock + 9n) &&
    typeof data.number === 'bigint' &&
    data.number > 0n &&
    template.number > 0n &&
    typeof data.timestamp === 'bigint' &&
    data.timestamp >= 0n &&
    typeof data.difficulty === 'bigint' &&
    data.difficulty >= 0n &&
    data.parentHash instanceof Uint8Array &&
    data.parentHash.length === 32 &&
    data.gasLimit === template.gasLimit &&
    equalsBytes(data.coinbase, template.coinbase.bytes) &&
    equalsBytes(data.extraData, template.extraData) &&
    equalsBytes(data.uncleHash, template.uncleHash)
  );
}

function rulesFor(common: Common): Rules {
  let rules = rulesOf.get(common);
  if (rules === undefined) {
    rules = {
      copies: common.consensusType() === 'pow' && !common.isActivatedEIP(1559),
      daoBlock: common.hardforkBlock('dao'),
    };
    rulesOf.set(common, rules);
  }
  return rules;
}
