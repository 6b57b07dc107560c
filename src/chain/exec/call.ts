/**
 * Message calls (eth_call, eth_estimateGas) on a block's state; nothing is ever persisted.
 *
 * Building a VM costs more than running a typical view call (the EVM builds its opcode and precompile
 * tables, the state manager its trie and caches: profiled at ~60% of a call), so a `CallExecutor` keeps
 * a few VMs per block and reuses them. Each call runs inside a state-manager checkpoint that is reverted
 * afterwards, so no call sees another's writes, and the outer checkpoint keeps the state manager from
 * flushing its caches into the trie (which would hash trie nodes for nothing). A block's state is
 * immutable (it is addressed by the block hash), so an executor never goes stale.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { openState } from '../state/state-view.js';
import { jumpAnalysisCacheInstalled } from './jump-analysis-cache.js';
import type { TrieNodeStore } from '../state/trie-db.js';
import type { ReceiptLog } from './receipts.js';

export interface CallMessage {
  /** Sender; the zero address when absent. */
  readonly from?: Uint8Array;
  /** Callee; absent = contract creation with `data` as init code. */
  readonly to?: Uint8Array;
  readonly data?: Uint8Array;
  readonly value?: bigint;
  /** Gas limit; defaults to the block's gas limit. */
  readonly gas?: bigint;
  readonly gasPrice?: bigint;
}

export interface CallResult {
  readonly returnData: Uint8Array;
  /** Gas the transaction would be charged (intrinsic gas included, refunds applied). */
  readonly gasUsed: bigint;
  /** True when execution ended with REVERT; `returnData` then holds the revert bytes. */
  readonly reverted: boolean;
  /** Why execution failed: an EVM error ('revert', 'out of gas', 'invalid opcode', ...) or a rejection reason. */
  readonly error?: string;
  readonly logs: readonly ReceiptLog[];
  /** For creations: where the contract would be deployed. */
  readonly createdAddress?: Uint8Array;
}

export interface CallContext {
  readonly store: TrieNodeStore;
  readonly common: Common;
  readonly stateRoot: Uint8Array;
  /** The block whose header is the call's environment (and whose post-state is `stateRoot`). */
  readonly envBlock: Block;
  readonly ancestors: EVMMockBlockchainInterface;
}

/** VMs kept per block: calls interleave at their state reads, and each needs a VM of its own meanwhile. */
const MAX_IDLE_VMS = 4;

/** Runs calls against one block's state with reusable VMs. Safe for concurrent calls. */
export class CallExecutor {
  private readonly idle: VM[] = [];

  constructor(private readonly ctx: CallContext) {}

  async run(msg: CallMessage): Promise<CallResult> {
    const vm = this.idle.pop() ?? (await this.newVm());
    const sm = vm.stateManager;
    await sm.checkpoint();
    let reusable = true;
    try {
      return await execute(vm, this.ctx, msg);
    } catch (err) {
      // A rejection (e.g. gas below the intrinsic gas) is an answer; the VM that threw is not trusted again.
      reusable = false;
      return rejection(err);
    } finally {
      if (reusable) {
        await sm.revert();
        if (this.idle.length < MAX_IDLE_VMS) this.idle.push(vm);
      }
    }
  }

  private async newVm(): Promise<VM> {
    await jumpAnalysisCacheInstalled;
    const { stateManager } = openState(this.ctx.store, this.ctx.common, this.ctx.stateRoot);
    // A shallow copy per VM: the EVM subscribes to its Common's events.
    return createVM({ common: this.ctx.common.copy(), stateManager, blockchain: this.ctx.ancestors });
  }
}

/** One call on a fresh executor (kept for callers that run a single call). */
export async function runCall(ctx: CallContext, msg: CallMessage): Promise<CallResult> {
  return new CallExecutor(ctx).run(msg);
}

async function execute(vm: VM, ctx: CallContext, msg: CallMessage): Promise<CallResult> {
  const sender = new Address(msg.from ?? new Uint8Array(20));
  const account = await vm.stateManager.getAccount(sender);
  // An unsigned transaction whose sender we assert: calls need no signature, only the sender's view.
  const tx = createLegacyTx(
    {
      nonce: account?.nonce ?? 0n,
      to: msg.to,
      data: msg.data,
      value: msg.value ?? 0n,
      gasLimit: msg.gas ?? ctx.envBlock.header.gasLimit,
      gasPrice: msg.gasPrice ?? 0n,
    },
    { common: ctx.common, freeze: false },
  );
  tx.getSenderAddress = () => sender;
  const result = await runTx(vm, {
    tx,
    block: ctx.envBlock,
    skipNonce: true,
    skipBalance: true,
    skipBlockGasLimitValidation: true,
  });
  const err = result.execResult.exceptionError;
  return {
    returnData: result.execResult.returnValue,
    gasUsed: result.totalGasSpent,
    reverted: err?.error === 'revert',
    ...(err !== undefined ? { error: err.error } : {}),
    logs: (result.execResult.logs ?? []).map(([address, topics, data]) => ({ address, topics, data })),
    ...(result.createdAddress !== undefined ? { createdAddress: result.createdAddress.bytes } : {}),
  };
}

function rejection(err: unknown): CallResult {
  const message = err instanceof Error ? err.message : String(err);
  return {
    returnData: new Uint8Array(0),
    gasUsed: 0n,
    reverted: false,
    error: message.replace(/ \([^]*? -> [^]*$/, '').trim(),
    logs: [],
  };
}
