import type { RpcHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';
import { rpc_discover } from './discover.js';

export const rpcHandlers: RpcHandlers<HandlerContext> = { ...methodHandlers.rpc, 'rpc.discover': rpc_discover };
