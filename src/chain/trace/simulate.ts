/**
 * eth_simulateV1's engine: blocks of calls run on the state after a stored block, each block on the state the
 * previous one left, as a miner would build them (receipts, roots, bloom, hash), and then dropped. The state is
 * opened with trie caches of its own (as a trace's re-execution is) and notes no written keys, so the simulated
 * state reaches neither the store nor the shared caches; a state the node does not keep is rebuilt first, as for a
 * trace.
 *
 * Calls become unsigned transactions whose sender is asserted (the spec skips signature checks); their hash is the
 * hash of their bytes with v, r and s zero. Ethereum Classic has no EIP-1559: a call is a legacy transaction (an
 * EIP-2930 one when it carries an access list) paying its gasPrice, 0 by default. No block reward is credited (geth
 * and Anvil credit none either); gas fees go to the block's fee recipient as in a real block.
 */
import { performance } from 'node:perf_hooks';
import { Block, type BlockHeader, createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import type { EVMMockBlockchainInterface } from '@ethereumjs/evm';
import { type TypedTransaction, createAccessList2930Tx, createLegacyTx } from '@ethereumjs/tx';
import { Address, KECCAK256_NULL, equalsBytes } from '@ethereumjs/util';
import { createVM, runTx, type VM } from '@ethereumjs/vm';
import { keccak256 } from '../base/crypto.js';
import { type ReceiptLog, type TxReceipt, combineBlooms, receiptsRoot, transactionsRoot } from '../codec/receipts.js';
import { CallTimeoutError, callDeadlineInstalled, clearDeadline, setDeadline } from '../exec/call-deadline.js';
import { rejectionMessage } from '../exec/call.js';
import { withoutSenderCodeCheck } from '../exec/impersonated-run.js';
import { jumpAnalysisCacheInstalled } from '../exec/jump-analysis-cache.js';
import { InvalidOverrideError, writeStateOverrides } from '../exec/overrides.js';
import { openState } from '../state/state-view.js';
import { TraceBudget } from './budget.js';
import type { Deadline } from './hooks.js';
import { continued, privateCaches, rebuiltState } from './reexec.js';
import type { TraceChain } from './replay.js';
import { givenBlocks, planBlocks } from './simulate-plan.js';
import { TransferTracker } from './simulate-transfers.js';
import {
  SimulateError,
  type SimulatedBlockInput,
  type SimulatedBlockResult,
  type SimulatedCall,
  type SimulatedCallResult,
  type SimulateOptions,
} from './simulate-types.js';
import { TraceLimitError } from './types.js';

export * from './simulate-types.js';

const ZERO_ADDRESS = new Uint8Array(20);

/** Simulates `inputs` on the state after `base`; throws `SimulateError` where the spec stops the whole request. */
export async function simulate(
  chain: TraceChain,
  base: Block,
  inputs: readonly SimulatedBlockInput[],
  opts: SimulateOptions,
): Promise<SimulatedBlockResult[]> {
  const plan =
    opts.bundles === true ? givenBlocks(inputs, opts.maxBlocks) : planBlocks(base.header, inputs, opts.maxBlocks);
  const deadline: Deadline | undefined =
    opts.deadline === undefined ? undefined : { ...opts.deadline, source: 'network.rpc.call.timeout' };
  const { store, stateRoot, ancestors } = chain.replayBase(base.header);
  let rebuilt: Awaited<ReturnType<typeof rebuiltState>>;
  try {
    rebuilt = await rebuiltState(chain, base.header, deadline, new TraceBudget(0));
  } catch (err) {
    if (err instanceof TraceLimitError && deadline !== undefined) throw timeout(deadline.limitMs);
    throw err;
  }
  const baseCommon = chain.commonAt(base.header.number);
  const opened =
    rebuilt === undefined
      ? openState(store, baseCommon, stateRoot, privateCaches(store), null)
      : continued(rebuilt, store, baseCommon, stateRoot);
  const run = new SimulationRun(chain, opened.stateManager, simulatedAncestors(ancestors), opts);
  const out: SimulatedBlockResult[] = [];
  let parent = base.header;
  for (const planned of plan) {
    const result = await run.block(parent, planned.number, planned.timestamp, planned.input);
    out.push(result);
    parent = result.block.header;
  }
  return out;
}

/** BLOCKHASH sees the simulated blocks above the stored ones. */
function simulatedAncestors(stored: EVMMockBlockchainInterface): EVMMockBlockchainInterface & {
  readonly simulated: Map<bigint, Uint8Array>;
} {
  const simulated = new Map<bigint, Uint8Array>();
  const view = {
    simulated,
    getBlock: async (n: number) => {
      const hash = simulated.get(BigInt(n));
      return hash === undefined ? stored.getBlock(n) : { hash: () => hash };
    },
    putBlock: async () => {},
    shallowCopy: () => view,
  };
  return view as EVMMockBlockchainInterface & { readonly simulated: Map<bigint, Uint8Array> };
}

const timeout = (limitMs: number): SimulateError =>
  new SimulateError('timeout', `eth_simulateV1 ran past its time limit of ${limitMs} ms (network.rpc.call.timeout)`);

type StateManager = ReturnType<typeof openState>['stateManager'];

/** The state and limits shared by a simulation's blocks. */
class SimulationRun {
  private gasLeft: bigint;

  constructor(
    private readonly chain: TraceChain,
    private readonly sm: StateManager,
    private readonly ancestors: ReturnType<typeof simulatedAncestors>,
    private readonly opts: SimulateOptions,
  ) {
    this.gasLeft = opts.gasBudget;
  }

  async block(
    parent: BlockHeader,
    number: bigint,
    timestamp: bigint,
    input: SimulatedBlockInput | undefined,
  ): Promise<SimulatedBlockResult> {
    const common = this.chain.commonAt(number);
    if (input?.state !== undefined) {
      try {
        await writeStateOverrides(this.sm, input.state);
      } catch (err) {
        if (err instanceof InvalidOverrideError) throw new SimulateError('invalidOverride', err.message);
        throw err;
      }
    }
    const env = input?.env;
    const fields = {
      parentHash: parent.hash(),
      number,
      timestamp,
      gasLimit: env?.gasLimit ?? parent.gasLimit,
      coinbase: env?.coinbase ?? ZERO_ADDRESS,
      difficulty: env?.difficulty ?? parent.difficulty,
    };
    const envHeader = createBlockHeader(fields, { common, skipConsensusFormatValidation: true });
    const envBlock = new Block(envHeader, [], [], undefined, { common });
    const vm = await this.vmFor(common);
    const txs: TypedTransaction[] = [];
    const senders: Uint8Array[] = [];
    const receipts: TxReceipt[] = [];
    const calls: SimulatedCallResult[] = [];
    let used = 0n;
    for (const call of input?.calls ?? []) {
      this.checkDeadline();
      const gasLeft = envHeader.gasLimit - (this.opts.bundles === true ? 0n : used);
      const { tx, sender } = await this.transactionOf(call, common, gasLeft);
      const outcome = await this.apply(vm, tx, sender, envBlock, used);
      used += outcome.receipt.gasUsed;
      this.gasLeft -= outcome.receipt.gasUsed;
      txs.push(tx);
      senders.push(sender.bytes);
      receipts.push(outcome.receipt);
      calls.push(outcome.call);
    }
    const header = createBlockHeader(
      {
        ...fields,
        gasUsed: used,
        stateRoot: await this.sm.getStateRoot(),
        transactionsTrie: transactionsRoot(txs, common),
        receiptTrie: receiptsRoot(receipts, common),
        logsBloom: combineBlooms(receipts.map((r) => r.logsBloom)),
      },
      { common, skipConsensusFormatValidation: true },
    );
    const block = new Block(header, txs, [], undefined, { common });
    this.ancestors.simulated.set(number, header.hash());
    return { block, senders, calls };
  }

  private async vmFor(common: Common): Promise<VM> {
    await Promise.all([jumpAnalysisCacheInstalled, callDeadlineInstalled]);
    return createVM({ common: common.copy(), stateManager: this.sm, blockchain: this.ancestors });
  }

  private checkDeadline(): void {
    const d = this.opts.deadline;
    if (d !== undefined && performance.now() > d.at) throw timeout(d.limitMs);
  }

  /** The call as the unsigned transaction the block carries, after the checks that stop the simulation. */
  private async transactionOf(
    call: SimulatedCall,
    common: Common,
    blockGasLeft: bigint,
  ): Promise<{ tx: TypedTransaction; sender: Address }> {
    const sender = new Address(call.from ?? ZERO_ADDRESS);
    const account = await this.sm.getAccount(sender);
    const nonce = account?.nonce ?? 0n;
    if (this.opts.validation && call.nonce !== undefined && call.nonce !== nonce) {
      const low = call.nonce < nonce;
      throw new SimulateError(
        low ? 'nonceTooLow' : 'nonceTooHigh',
        `nonce too ${low ? 'low' : 'high'}: address ${sender} has nonce ${nonce}, the call gives ${call.nonce}`,
      );
    }
    if (this.opts.validation && account !== undefined && !equalsBytes(account.codeHash, KECCAK256_NULL)) {
      throw new SimulateError('senderNotEoa', `sender not an eoa: address ${sender} has code (EIP-3607)`);
    }
    const budget = this.gasLeft;
    if (call.gas !== undefined && call.gas > blockGasLeft) {
      throw new SimulateError(
        'blockGasLimit',
        `block gas limit reached: the call asks ${call.gas} gas, the block has ${blockGasLeft} left`,
      );
    }
    if (call.gas !== undefined && call.gas > budget) {
      throw new SimulateError(
        'clientLimit',
        `not enough gas left: the call asks ${call.gas} gas, the request has ${budget} left of network.rpc.call.gas-cap`,
      );
    }
    const gasLimit = call.gas ?? (blockGasLeft < budget ? blockGasLeft : budget);
    const value = call.value ?? 0n;
    const gasPrice = call.gasPrice ?? 0n;
    const need = value + gasLimit * gasPrice;
    const balance = account?.balance ?? 0n;
    if (balance < need) {
      throw new SimulateError(
        'insufficientFunds',
        `insufficient funds for gas * price + value: address ${sender} have ${balance} want ${need}`,
      );
    }
    const fields = {
      nonce: call.nonce ?? nonce,
      to: call.to,
      data: call.data,
      value,
      gasLimit,
      gasPrice,
    };
    const tx =
      call.accessList === undefined
        ? createLegacyTx(fields, { common, freeze: false })
        : createAccessList2930Tx(
            {
              ...fields,
              chainId: common.chainId(),
              accessList: call.accessList.map((e) => ({
                address: e.address as `0x${string}`,
                storageKeys: e.storageKeys.map((k) => k as `0x${string}`),
              })),
            },
            { common, freeze: false },
          );
    // Unsigned (v, r, s zero): the sender is asserted, and the hash is that of the bytes the block carries.
    const hash = keccak256(tx.serialize());
    Object.assign(tx, { getSenderAddress: () => sender, hash: () => hash });
    return { tx, sender };
  }

  private async apply(
    vm: VM,
    tx: TypedTransaction,
    sender: Address,
    block: Block,
    blockGasUsed: bigint,
  ): Promise<{ receipt: TxReceipt; call: SimulatedCallResult }> {
    const tracker = this.opts.traceTransfers ? new TransferTracker(vm.evm) : undefined;
    const d = this.opts.deadline;
    if (d !== undefined) setDeadline(vm.evm, d.at, d.limitMs);
    const run = () =>
      runTx(vm, {
        tx,
        block,
        blockGasUsed,
        skipNonce: !this.opts.validation,
        skipBalance: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
      });
    let result: Awaited<ReturnType<typeof runTx>>;
    try {
      result = await (this.opts.validation ? run() : withoutSenderCodeCheck(vm.stateManager, sender, run));
    } catch (err) {
      tracker?.merge([]);
      if (err instanceof CallTimeoutError) throw timeout(err.limitMs);
      throw refusal(err);
    } finally {
      if (d !== undefined) clearDeadline(vm.evm);
    }
    const r = result.receipt;
    const logs: ReceiptLog[] = r.logs.map(([address, topics, data]) => ({ address, topics, data }));
    const receipt: TxReceipt = {
      type: tx.type,
      status: 'status' in r ? r.status : 1,
      cumulativeGasUsed: r.cumulativeBlockGasUsed,
      gasUsed: result.totalGasSpent,
      logs,
      logsBloom: r.bitvector,
      from: sender.bytes,
      ...(result.createdAddress !== undefined ? { contractAddress: result.createdAddress.bytes } : {}),
    };
    const err = result.execResult.exceptionError;
    const shown = tracker === undefined ? logs : tracker.merge(logs);
    const call: SimulatedCallResult = {
      status: err === undefined ? 1 : 0,
      returnData: result.execResult.returnValue,
      gasUsed: result.totalGasSpent,
      logs: err === undefined ? shown : [],
      ...(err !== undefined ? { error: { reverted: err.error === 'revert', message: err.error } } : {}),
    };
    return { receipt, call };
  }
}

/** runTx's refusals of a transaction, as the spec's reasons. */
function refusal(err: unknown): SimulateError {
  const message = rejectionMessage(err);
  if (/lower than the minimum gas limit|intrinsic gas/i.test(message))
    return new SimulateError('intrinsicGas', message);
  if (/initcode|init code/i.test(message)) return new SimulateError('initCodeTooLarge', message);
  if (/not an EOA/i.test(message)) return new SimulateError('senderNotEoa', message);
  if (/nonce/i.test(message)) {
    return new SimulateError(/too high|higher/.test(message) ? 'nonceTooHigh' : 'nonceTooLow', message);
  }
  if (/balance|funds/i.test(message)) return new SimulateError('insufficientFunds', message);
  return new SimulateError('rejected', message);
}
