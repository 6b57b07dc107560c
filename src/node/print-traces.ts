/**
 * `--print-traces` (Anvil's flag, dev only): after each block the miner seals, a call trace of each of its
 * transactions in the log, one info line per frame in execution order (`msg` "call trace"): the transaction's
 * hash, the frame's depth, and `frame`, a compact tree line (indent by depth, call type, target, selector, gas
 * used, the error and revert reason of a frame that failed). The block is replayed once with the callTracer
 * (the tracing engine of debug_traceBlock), one block at a time, after its import; nothing of it runs without
 * the flag.
 */
import { bytesToHex } from '@ethereumjs/util';
import { type CallFrameJson, type ChainEngine, framesOf, type MinedBlock, traceBlock } from '../chain/index.js';
import type { Logger } from './logger.js';

const CONSOLE = '0x000000000000000000636f6e736f6c652e6c6f67';

/** One frame as a line of the tree: `  └ STATICCALL console 0xb60e72cc gasUsed=0`. */
export function frameLine(frame: CallFrameJson, depth: number): string {
  const to = frame.to === undefined ? '' : frame.to.toLowerCase() === CONSOLE ? ' console' : ` ${frame.to}`;
  const selector = frame.input.length >= 10 && !frame.type.startsWith('CREATE') ? ` ${frame.input.slice(0, 10)}` : '';
  const failed =
    frame.error === undefined ? '' : ` [${frame.error}${frame.revertReason ? `: ${frame.revertReason}` : ''}]`;
  const indent = depth === 0 ? '' : `${'  '.repeat(depth - 1)}└ `;
  return `${indent}${frame.type}${to}${selector} gasUsed=${BigInt(frame.gasUsed)}${failed}`;
}

export interface PrintedTraces {
  close(): void;
}

export function printTraces(engine: ChainEngine, log: Logger): PrintedTraces {
  let turn: Promise<void> = Promise.resolve();
  const print = async (mined: MinedBlock) => {
    const traces = await traceBlock(engine.chain, mined.block.hash(), { tracer: 'callTracer' });
    for (const { txHash, result } of traces ?? []) {
      const tx = bytesToHex(txHash);
      for (const { frame, depth } of framesOf(result as CallFrameJson))
        log.info('call trace', { tx, depth, frame: frameLine(frame, depth) });
    }
  };
  const onSealed = (mined: MinedBlock) => {
    if (mined.block.transactions.length === 0) return;
    turn = turn
      .then(() => print(mined))
      .catch((err: unknown) => log.warn('call trace failed', { error: (err as Error)?.message ?? String(err) }));
  };
  engine.miner.on('sealed', onSealed);
  return { close: () => engine.miner.off('sealed', onSealed) };
}
