/** anvil_dumpState / anvil_loadState: the dev chain's state dump (chain/dev/state-dump.ts), as hex of gzip(JSON). */
import { gzipSync } from 'node:zlib';
import { dumpDevState, loadDevState, preimageBookOf, StateDumpError } from '../../chain/index.js';
import type { AnvilDumpStateResult, AnvilLoadStateParams, AnvilLoadStateResult } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { invalidParams } from '../../rpc/errors.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';
import { controlsOf } from './controls.js';

export async function anvil_dumpState(_params: [], ctx: HandlerContext): Promise<AnvilDumpStateResult> {
  const controls = controlsOf(ctx, 'anvil_dumpState');
  const dump = await dumpDevState(controls, await preimageBookOf(controls.engine));
  return hexFromBytes(gzipSync(Buffer.from(JSON.stringify(dump))));
}

/** Sets every account of the dump (gzip or plain JSON, as Anvil writes and reads it) in place, as one edit. */
export async function anvil_loadState(
  [state]: AnvilLoadStateParams,
  ctx: HandlerContext,
): Promise<AnvilLoadStateResult> {
  const controls = controlsOf(ctx, 'anvil_loadState');
  try {
    await loadDevState(controls, bytesFromHex(state));
  } catch (err) {
    if (err instanceof StateDumpError) throw invalidParams(`invalid params for anvil_loadState: ${err.reason}`);
    throw err;
  }
  return true;
}
