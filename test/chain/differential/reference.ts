/**
 * The reference: a plain @ethereumjs/vm with the chain's Common (the same ETC rule set, `evmRulesAt`), a
 * MerkleStateManager holding the same genesis allocation, and nothing of the engine's execution code. It decodes each
 * block from its RLP, checks the transactions trie, runs it with `runBlock` (`generate: true`, so it reports its own
 * roots rather than trusting the header's; the comparison is compare.ts's), and keeps every block's post-state root:
 * eth_call's reference and traces replay on those states with `runTx` on a fresh VM.
 */
import { type Block, createBlockFromRLP } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVM, EVMMockBlockchainInterface, EVMResult, InterpreterStep } from '@ethereumjs/evm';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createLegacyTx } from '@ethereumjs/tx';
import { Account, Address, KECCAK256_NULL, bytesToHex } from '@ethereumjs/util';
import { createVM, runBlock, runTx, type RunBlockResult, type VM } from '@ethereumjs/vm';
import { evmRulesAt } from '../../../src/chain/rules/evmRules.js';
import type { NetworkDefinition } from '../../../src/chain/networks/types.js';
import type { CallMessage, CallResult } from '../../../src/chain/exec/call.js';
import { ReferenceTracer, type ReferenceTrace } from './reference-tracer.js';

/** Opcodes whose runs the reference counts: the coverage the random blocks reached. */
const COUNTED_OPS = new Set([
  'SSTORE',
  'LOG0',
  'LOG1',
  'LOG2',
  'CALL',
  'CALLCODE',
  'DELEGATECALL',
  'STATICCALL',
  'CREATE',
  'CREATE2',
  'SELFDESTRUCT',
  'REVERT',
  'INVALID',
  'BLOCKHASH',
  'EXTCODEHASH',
]);

export class ReferenceChain {
  /** How often each counted opcode ran and each EVM error ended a frame, over every block run. */
  readonly coverage = new Map<string, number>();

  private count(key: string): void {
    this.coverage.set(key, (this.coverage.get(key) ?? 0) + 1);
  }
  /** Block number → the block (as the reference decoded it) and the state root after it. */
  private readonly blocks = new Map<bigint, { block: Block; stateRoot: Uint8Array }>();

  private constructor(
    private readonly definition: NetworkDefinition,
    /** One trie database holding every state the reference reached (nothing is pruned). */
    private readonly state: MerkleStateManager,
  ) {}

  /** The genesis state of `definition`, checked against the engine's genesis block. */
  static async open(definition: NetworkDefinition, genesis: Block): Promise<ReferenceChain> {
    const common = evmRulesAt(definition, 0n).copy();
    const state = new MerkleStateManager({ common });
    await state.checkpoint();
    for (const a of await definition.genesis.loadAlloc()) {
      const address = new Address(a.address);
      await state.putAccount(address, new Account(a.nonce ?? 0n, a.balance));
      if (a.code !== undefined && a.code.length > 0) await state.putCode(address, a.code);
      for (const [slot, value] of a.storage ?? []) await state.putStorage(address, slot, value);
    }
    await state.commit();
    await state.flush();
    const root = await state.getStateRoot();
    if (bytesToHex(root) !== bytesToHex(genesis.header.stateRoot)) {
      throw new Error(
        `reference genesis root ${bytesToHex(root)} ≠ the chain's ${bytesToHex(genesis.header.stateRoot)}`,
      );
    }
    const chain = new ReferenceChain(definition, state);
    const decoded = createBlockFromRLP(genesis.serialize(), { common });
    chain.blocks.set(0n, { block: decoded, stateRoot: root });
    return chain;
  }

  commonAt(number: bigint): Common {
    return evmRulesAt(this.definition, number).copy();
  }

  /** BLOCKHASH: the blocks the reference has run. */
  private ancestors(): EVMMockBlockchainInterface {
    const self = this;
    const chain: EVMMockBlockchainInterface = {
      async getBlock(n: bigint | number) {
        const found = self.blocks.get(BigInt(n));
        if (found === undefined) throw new Error(`reference: no block ${n}`);
        return found.block;
      },
      putBlock: async () => {},
      shallowCopy: () => chain,
    };
    return chain;
  }

  /** A fresh VM on the state after block `number`. */
  private async vmAfter(number: bigint, envNumber: bigint): Promise<VM> {
    const sm = await this.stateAt(number);
    return createVM({ common: this.commonAt(envNumber), stateManager: sm, blockchain: this.ancestors() });
  }

  /** A state manager on the state after block `number`. */
  async stateAt(number: bigint): Promise<MerkleStateManager> {
    const sm = this.state.shallowCopy(false);
    await sm.setStateRoot(this.stateRootAfter(number));
    return sm;
  }

  stateRootAfter(number: bigint): Uint8Array {
    const found = this.blocks.get(number);
    if (found === undefined) throw new Error(`reference: block ${number} not run`);
    return found.stateRoot;
  }

  /** Runs the next block (its RLP), on a fresh VM over the parent's state. */
  async runBlock(rlp: Uint8Array, number: bigint): Promise<{ block: Block; result: RunBlockResult }> {
    const block = createBlockFromRLP(rlp, { common: this.commonAt(number) });
    if (!(await block.transactionsTrieIsValid())) throw new Error(`reference: block ${number}'s transactions trie`);
    const vm = await this.vmAfter(number - 1n, number);
    const evm = vm.evm as EVM;
    const step = (e: InterpreterStep): void => {
      if (COUNTED_OPS.has(e.opcode.name)) this.count(e.opcode.name);
    };
    const after = (r: EVMResult): void => {
      const err = r.execResult.exceptionError?.error;
      if (err !== undefined) this.count(`error: ${err}`);
    };
    evm.events.on('step', step);
    evm.events.on('afterMessage', after);
    const result = await runBlock(vm, {
      block,
      root: this.stateRootAfter(number - 1n),
      generate: true,
      skipBlockValidation: true,
    });
    evm.events.off('step', step);
    evm.events.off('afterMessage', after);
    for (const r of result.receipts) this.count('status' in r && r.status === 0 ? 'tx failed' : 'tx succeeded');
    this.blocks.set(number, { block, stateRoot: result.stateRoot });
    return { block, result };
  }

  /**
   * Transaction `index` of block `number` traced by the reference tracer: the block's earlier transactions replayed
   * with runTx on a fresh VM over the parent's state, then this one with the tracer listening.
   */
  async trace(number: bigint, index: number, withMemory = false): Promise<ReferenceTrace> {
    const { block } = this.blocks.get(number)!;
    const vm = await this.vmAfter(number - 1n, number);
    let gasUsed = 0n;
    for (let i = 0; i < index; i++) {
      const r = await runTx(vm, {
        tx: block.transactions[i]!,
        block,
        blockGasUsed: gasUsed,
        skipHardForkValidation: true,
      });
      gasUsed += r.totalGasSpent;
    }
    const tx = block.transactions[index]!;
    const tracer = new ReferenceTracer(vm, tx, withMemory);
    tracer.attach();
    try {
      const r = await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
      return tracer.finish(r);
    } finally {
      tracer.detach();
    }
  }

  /**
   * eth_call on the state after block `number` as runTx runs it: an unsigned legacy transaction with the sender
   * asserted, no nonce or balance checks (runTx then lifts a short balance to the up-front cost), no block gas check,
   * and no EIP-3607 refusal of a sender with code: that rule is a transaction's, and geth, Anvil and Hardhat answer
   * calls from a contract's address.
   */
  async call(number: bigint, msg: CallMessage): Promise<CallResult> {
    const { block } = this.blocks.get(number)!;
    const vm = await this.vmAfter(number, number);
    const sender = new Address(msg.from ?? new Uint8Array(20));
    const account = await vm.stateManager.getAccount(sender);
    try {
      const tx = createLegacyTx(
        {
          nonce: account?.nonce ?? 0n,
          to: msg.to,
          data: msg.data,
          value: msg.value ?? 0n,
          gasLimit: msg.gas ?? block.header.gasLimit,
          gasPrice: msg.gasPrice ?? 0n,
        },
        { common: vm.common, freeze: false },
      );
      tx.getSenderAddress = () => sender;
      const r = await withSenderCodeUnseen(vm, sender, () =>
        runTx(vm, { tx, block, skipNonce: true, skipBalance: true, skipBlockGasLimitValidation: true }),
      );
      const err = r.execResult.exceptionError;
      return {
        returnData: r.execResult.returnValue,
        gasUsed: r.totalGasSpent,
        reverted: err?.error === 'revert',
        ...(err !== undefined ? { error: err.error } : {}),
        logs: (r.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
        ...(r.createdAddress !== undefined ? { createdAddress: r.createdAddress.bytes } : {}),
      };
    } catch (err) {
      // runTx's refusal, without the block and transaction details it appends.
      const message = err instanceof Error ? err.message : String(err);
      const error = message.replace(/ \([\s\S]*? -> [\s\S]*$/, '').trim();
      return { returnData: new Uint8Array(0), gasUsed: 0n, reverted: false, error, logs: [] };
    }
  }
}

/**
 * runTx reads the sender's account once up front for its EIP-3607 check; that one read sees the account as if it
 * had no code (balance and nonce as they are). Every later read, the EVM's own included, sees the real account.
 */
async function withSenderCodeUnseen<T>(vm: VM, sender: Address, run: () => Promise<T>): Promise<T> {
  const sm = vm.stateManager;
  const original = sm.getAccount.bind(sm);
  let first = true;
  sm.getAccount = async (address: Address) => {
    const account = await original(address);
    if (!first || account === undefined || !address.equals(sender)) return account;
    first = false;
    // Only the check's own look at codeHash is fooled: runTx writes this object back (nonce, balance), and the
    // account must keep its code.
    const copy = new Account(account.nonce, account.balance, account.storageRoot, account.codeHash);
    let real = account.codeHash;
    let hidden = true;
    Object.defineProperty(copy, 'codeHash', {
      get: () => {
        if (!hidden) return real;
        hidden = false;
        return KECCAK256_NULL;
      },
      set: (value: Uint8Array) => {
        real = value;
      },
    });
    return copy;
  };
  try {
    return await run();
  } finally {
    sm.getAccount = original;
  }
}
