import type { Web3Handlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

export const web3Handlers: Web3Handlers<HandlerContext> = { ...methodHandlers.web3 };
