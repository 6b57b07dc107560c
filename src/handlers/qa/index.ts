import type { QaHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { qa_generateCheckpoint } from './generateCheckpoint.js';
import { qa_getFederationMembersInfo } from './getFederationMembersInfo.js';
import { qa_mineBlocks } from './mineBlocks.js';

export const qaHandlers: QaHandlers<HandlerContext> = {
  qa_mineBlocks,
  qa_generateCheckpoint,
  qa_getFederationMembersInfo,
};
