/**
 * Block building for the miner: the contents of a child of a stored block from candidate transactions, executed
 * once (on the warm state when it is the parent's); the sealed block's import then reuses that execution.
 */
import { Block, createBlockHeader, type BlockHeader, type HeaderData } from '@ethereumjs/block';
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { KECCAK256_RLP_ARRAY } from '@ethereumjs/util';
import type { ChainView } from '../view/chain-view.js';
import { Ecip1097Header, type Federation } from '../checkpointing/index.js';
import { transactionsRoot, type TxReceipt } from '../codec/receipts.js';
import type { BlockStore } from '../db/block-store.js';
import type { ChainRules } from '../rules/engine-types.js';
import { BlockRunner } from '../exec/block-runner.js';
import type { OpenedState } from '../state/state-view.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import type { SealedBlocks } from '../exec/sealed-blocks.js';
import type { WarmState } from '../exec/warm-state.js';
import { SealedHeaders } from './sealed-header.js';
import { ExecutionHeaders } from './execution-header.js';

export interface AssembleOptions {
  /** Defaults to the head. */
  readonly parentHash?: Uint8Array;
  /** Candidates in the order to try them; ones that do not apply are skipped and reported. */
  readonly transactions: Iterable<TypedTransaction>;
  readonly coinbase: Uint8Array;
  /** Defaults to max(now, parent + 1). */
  readonly timestamp?: bigint;
  readonly extraData?: Uint8Array;
  /** Defaults to the parent's gas limit. */
  readonly gasLimit?: bigint;
  /** Defaults to the rules' difficulty for the parent and timestamp. */
  readonly difficulty?: bigint;
  readonly uncles?: readonly BlockHeader[];
}

export interface AssembledBlock {
  /** The unsealed block (zero nonce and mix hash): what the seal is computed over. */
  readonly template: Block;
  readonly transactions: readonly TypedTransaction[];
  readonly receipts: readonly TxReceipt[];
  readonly rejected: readonly { readonly tx: TypedTransaction; readonly reason: string }[];
  /**
   * The same block with a seal; importing it reuses this execution instead of running it again.
   * `sealVerified`: the caller found this seal with the pow module or has just checked it (the miner
   * does both), so import does not hash it again. Default false: the seal is verified on import.
   */
  seal(nonce: Uint8Array, mixHash: Uint8Array, sealVerified?: boolean): Block;
}

export interface AssemblerParts {
  readonly view: ChainView;
  readonly store: BlockStore;
  readonly nodes: TrieNodeStore;
  readonly rules: ChainRules;
  readonly federation: Federation | undefined;
  readonly sealed: SealedBlocks;
  readonly warm: WarmState;
  /** Run every transaction through the EVM, plain transfers included, in the library's own call frames, opcodes and journal. */
  readonly evmOnly: boolean;
  /** Execute on a flat state over the warm one (exec/flat-state.ts): the dev chain's miner. */
  readonly flatState: boolean;
  /** Dev: hears the console.log lines of each transaction included (exec/console-watch.ts); absent = not decoded. */
  readonly console: ConsoleListener | undefined;
}

/** The console.log lines one transaction wrote, with its hash. */
export type ConsoleListener = (txHash: Uint8Array, lines: readonly string[]) => void;

/** A header with the ECIP-1097 (here empty) checkpoint field when `federation` has it at `number`; the seal covers it. */
export function headerBuilder(
  federation: Federation | undefined,
  number: bigint,
  common: Block['common'],
): (data: HeaderData) => BlockHeader {
  const withCheckpointField = federation?.activeAt(number) === true;
  return (data) =>
    withCheckpointField ? new Ecip1097Header(data, { common }, undefined) : createBlockHeader(data, { common });
}

export class BlockAssembler {
  /** Sealed headers as copies of the execution header (sealed-header.ts). */
  private readonly sealedHeaders = new SealedHeaders();
  /** Execution headers as copies of the previous one (execution-header.ts). */
  private readonly executionHeaders = new ExecutionHeaders();

  constructor(private readonly p: AssemblerParts) {}

  /**
   * Builds the contents of a child of `parentHash` (default: head) from candidate transactions, executing
   * them once; the miner seals `template` and imports `seal(nonce, mixHash)`.
   */
  async assemble(opts: AssembleOptions): Promise<AssembledBlock> {
    const parent = await this.p.store.getHeader(opts.parentHash ?? this.p.view.getHead().hash());
    if (parent === undefined) throw new Error('assemble: unknown parent block');
    return this.assembleOn(parent, opts, this.p.warm.take(parent, this.p.view.commonAt(parent.number + 1n)));
  }

  /** `state`: continue on the state the parent's assembly finished on, instead of opening the trie. */
  private async assembleOn(parent: BlockHeader, opts: AssembleOptions, state?: OpenedState): Promise<AssembledBlock> {
    const { view, rules, sealed } = this.p;
    const number = parent.number + 1n;
    const common = view.commonAt(number);
    const now = BigInt(Math.floor(Date.now() / 1000));
    const timestamp = opts.timestamp ?? (now > parent.timestamp ? now : parent.timestamp + 1n);
    const uncles = opts.uncles ?? [];
    const env = {
      parentHash: parent.hash(),
      uncleHash:
        uncles.length === 0
          ? KECCAK256_RLP_ARRAY
          : common.customCrypto.keccak256!(RLP.encode(uncles.map((u) => u.raw()))),
      coinbase: opts.coinbase,
      difficulty: opts.difficulty ?? rules.difficulty(parent, timestamp),
      number,
      gasLimit: opts.gasLimit ?? parent.gasLimit,
      timestamp,
      extraData: opts.extraData ?? new Uint8Array(0),
    };
    const newHeader = headerBuilder(this.p.federation, number, common);
    const kind = this.p.federation?.activeAt(number) === true ? 'ecip1097' : 'plain';
    const envHeader = this.executionHeaders.header(common, kind, env, newHeader);
    const envBlock = new Block(envHeader, [], [...uncles], undefined, { common });
    const runner = await BlockRunner.start({
      store: this.p.nodes,
      common,
      parentStateRoot: view.stateRootAfter(parent),
      envBlock,
      ancestors: view.ancestorsOf(parent),
      plainTransfers: !this.p.evmOnly,
      flat: this.p.flatState,
      leanEvm: this.p.flatState && !this.p.evmOnly,
      ...(this.p.console !== undefined ? { console: true } : {}),
      ...(state !== undefined ? { state } : {}),
    });
    const included: TypedTransaction[] = [];
    const rejected: { tx: TypedTransaction; reason: string }[] = [];
    for (const tx of opts.transactions) {
      const outcome = await runner.apply(tx);
      if (outcome.ok) {
        included.push(tx);
        if (outcome.console !== undefined) this.p.console?.(tx.hash(), outcome.console);
      } else rejected.push({ tx, reason: outcome.reason });
    }
    const result = await runner.finish(rules.rewards(envBlock.header, uncles));
    const outcome = {
      stateRoot: result.stateRoot,
      transactionsTrie: transactionsRoot(included, common),
      receiptTrie: result.receiptsRoot,
      logsBloom: result.logsBloom,
      gasUsed: result.gasUsed,
    };
    const sealedHeaders = this.sealedHeaders;
    const build = (nonce: Uint8Array, mixHash: Uint8Array): Block =>
      new Block(
        sealedHeaders.sealed(envHeader, env, { ...outcome, nonce, mixHash }, newHeader),
        included,
        [...uncles],
        undefined,
        { common },
      );
    // Built on first use: the Ethash sealer hashes it, the instant seal never looks at it.
    let template: Block | undefined;
    return {
      get template() {
        template ??= build(new Uint8Array(8), new Uint8Array(32));
        return template;
      },
      transactions: included,
      receipts: result.receipts,
      rejected,
      seal: (nonce, mixHash, sealVerified = false) => {
        const block = build(nonce, mixHash);
        sealed.note(block, result, sealVerified);
        return block;
      },
    };
  }
}
