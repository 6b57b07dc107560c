import type { RpcHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { rpc_discover } from './discover.js';
import { rpc_modules } from './modules.js';

export const rpcHandlers: RpcHandlers<HandlerContext> = { rpc_modules, 'rpc.discover': rpc_discover };
