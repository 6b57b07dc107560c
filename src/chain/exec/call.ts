/**
 * Message calls (eth_call, eth_estimateGas) on a throwaway copy of a block's state: the state manager
 * writes into a buffer that is dropped, so nothing is persisted.
 */
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { createLegacyTx } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { openState } from '../state/state-view.js';
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

export async function runCall(ctx: CallContext, msg: CallMessage): Promise<CallResult> {
  const { stateManager } = openState(ctx.store, ctx.common, ctx.stateRoot);
  const vm = await createVM({ common: ctx.common.copy(), stateManager, blockchain: ctx.ancestors });
  const sender = new Address(msg.from ?? new Uint8Array(20));
  const account = await stateManager.getAccount(sender);
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
  try {
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
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      returnData: new Uint8Array(0),
      gasUsed: 0n,
      reverted: false,
      error: message.replace(/ \([^]*? -> [^]*$/, '').trim(),
      logs: [],
    };
  }
}
