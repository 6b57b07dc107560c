import type { CheckpointingHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { checkpointing_getLatestBlock } from './getLatestBlock.js';
import { checkpointing_pushCheckpoint } from './pushCheckpoint.js';

/** ECIP-1097 checkpointing (behind network configuration; see src/chain/checkpointing/). */
export const checkpointingHandlers: CheckpointingHandlers<HandlerContext> = {
  checkpointing_getLatestBlock,
  checkpointing_pushCheckpoint,
};
