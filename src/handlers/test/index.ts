import type { TestHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { test_getLogHash } from './getLogHash.js';
import { test_importRawBlock } from './importRawBlock.js';
import { test_mineBlocks } from './mineBlocks.js';
import { test_modifyTimestamp } from './modifyTimestamp.js';
import { test_rewindToBlock } from './rewindToBlock.js';
import { test_setChainParams } from './setChainParams.js';
import { miner_setEtherbase } from './setEtherbase.js';

/** The retesteth interface (enabled by --testmode). */
export const testHandlers: TestHandlers<HandlerContext> = {
  test_setChainParams,
  test_importRawBlock,
  test_mineBlocks,
  test_modifyTimestamp,
  test_rewindToBlock,
  test_getLogHash,
  miner_setEtherbase,
};
