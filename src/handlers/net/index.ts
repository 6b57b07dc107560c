import type { NetHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';
import { net_listening } from './listening.js';
import { net_version } from './version.js';

export const netHandlers: NetHandlers<HandlerContext> = { net_version, net_listening };
