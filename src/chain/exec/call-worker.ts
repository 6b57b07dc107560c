/**
 * Worker-thread entry of the call pool (view/call-pool.ts): runs eth_call, eth_estimateGas and
 * eth_createAccessList messages with the main thread's own `CallExecutor`, so an answer is the same bytes
 * whichever thread computed it. The Commons are built here from the network definition as the main thread
 * builds them (rules/evmRules.ts), block headers are decoded with the same codec, and the state is read through
 * the main thread (remote-reads.ts). One executor per block state, kept while calls keep coming to it.
 */
import type { BlockHeaderBytes } from '@ethereumjs/block';
import { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { BlockCodec } from '../codec/block-codec.js';
import { Lru } from '../db/lru.js';
import type { NetworkDefinition } from '../networks/types.js';
import { evmRulesAt } from '../rules/evmRules.js';
import { CallExecutor } from './call.js';
import { CallTimeoutError } from './call-deadline.js';
import {
  type CallJob,
  type CallOutcome,
  type CallWorkerSetup,
  compact,
  type FromWorker,
  type ToWorker,
} from './call-worker-protocol.js';
import { InvalidOverrideError } from './overrides.js';
import { ReadChannel } from './remote-reads.js';
import { sharedCommon } from './shared-common.js';

const port = parentPort!;
const setup = workerData as CallWorkerSetup & { readonly executors: number };
// The allocation is never read by a call; the definition crosses without it (a function cannot be cloned).
const network: NetworkDefinition = {
  ...setup.network,
  genesis: { ...setup.network.genesis, loadAlloc: () => Promise.resolve([]) },
};
const commonAt = (number: bigint): Common => sharedCommon(evmRulesAt(network, number));
const codec = new BlockCodec(commonAt, commonAt, setup.checkpointing);
const post = (message: FromWorker): void => port.postMessage(message);
const channel = new ReadChannel(post);
const executors = new Lru<string, CallExecutor>(setup.executors);

function executorFor(job: CallJob): CallExecutor {
  let executor = executors.get(job.key);
  if (executor === undefined) {
    const header = codec.header(job.header as BlockHeaderBytes);
    executor = new CallExecutor({
      store: () => channel.reader(job.key),
      common: header.common,
      stateRoot: job.stateRoot,
      envBlock: new Block(header, [], [], undefined, { common: header.common }),
      ancestors: channel.ancestors(job.key),
    });
    executors.set(job.key, executor);
  }
  return executor;
}

async function run(job: CallJob): Promise<CallOutcome> {
  const { deadline } = job.msg;
  const msg =
    deadline === undefined
      ? job.msg
      : { ...job.msg, deadline: { ...deadline, at: deadline.at - performance.timeOrigin } };
  try {
    return { kind: 'done', id: job.id, result: compact(await executorFor(job).run(msg)) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof CallTimeoutError)
      return { kind: 'done', id: job.id, error: { name: 'timeout', message, limitMs: err.limitMs } };
    if (err instanceof InvalidOverrideError) return { kind: 'done', id: job.id, error: { name: 'override', message } };
    return { kind: 'done', id: job.id, error: { name: 'other', message } };
  }
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'reads') channel.answer(message);
  else if (message.kind === 'call') void run(message).then(post);
  else if (message.kind === 'exit') process.exit(message.code);
});

post({ kind: 'ready' });
