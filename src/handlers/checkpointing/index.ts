import type { CheckpointingHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** ECIP-1097 checkpointing (behind network configuration; see src/chain/checkpointing/). */
export const checkpointingHandlers: CheckpointingHandlers<HandlerContext> = {
  ...methodHandlers.checkpointing,
};
