import type { EthHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';
import { eth_chainId } from './chainId.js';

export const ethHandlers: EthHandlers<HandlerContext> = { eth_chainId };
