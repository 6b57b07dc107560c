/** Which states the node keeps on disk (`--gcmode`) and how far back traces may re-execute. */
import { GC_MODES } from '../../chain/index.js';
import * as s from './setting.js';

export const stateSettings = {
  'state.gcmode': s.oneOf(GC_MODES, {
    flag: 'gcmode',
    // A dev chain's states are its user's history (evm_revert, reads at any block), and it stays small.
    default: ({ network }) => (network === 'dev' ? 'archive' : 'full'),
    help: 'full on mordor and etc, archive on dev',
    description:
      'full: keep the last state.keep-states states (and a few sparse ones below them) and prune the rest; archive: keep every state. A datadir pruned once cannot go back to archive',
  }),
  'state.keep-states': s.count({
    flag: 'state.keep',
    default: 128,
    description: 'full mode: how many recent states are kept (the head and the blocks below it)',
  }),
  'state.checkpoint-interval': s.count({
    default: 128,
    description:
      'full mode: below the recent states, the states of blocks at multiples of this are kept too (re-execution starts there)',
  }),
  'state.checkpoints': s.int({
    min: 0,
    default: 2,
    description: 'full mode: how many of those sparse states are kept',
  }),
  'state.prune-min-bytes': s.int({
    min: 1,
    default: 64 * 1024 * 1024,
    description:
      'full mode: a pruning cycle starts once the state written since the last one passes a fifth of the live state it measured, and this many bytes at least',
  }),
  'network.rpc.debug.reexec': s.int({
    min: 0,
    default: 128,
    description:
      'full mode: most blocks debug_trace* / trace_* re-execute to rebuild a pruned state from the nearest kept one (0 = never; -32000 beyond it)',
  }),
};
