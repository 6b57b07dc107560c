import type { EthHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';
import { ethExtraHandlers } from './extras.handlers.js';
import { ethLogHandlers } from './logs.handlers.js';
import { ethMiningHandlers } from './mining.handlers.js';
import { ethReadHandlers } from './read.handlers.js';
import { ethWriteHandlers } from './write.handlers.js';

/** The groups are assembled here so that `tsc` checks the whole namespace against the generated interface. */
export const ethHandlers: EthHandlers<HandlerContext> = {
  ...methodHandlers.eth,
  ...ethReadHandlers,
  ...ethWriteHandlers,
  ...ethMiningHandlers,
  ...ethLogHandlers,
  ...ethExtraHandlers,
};
