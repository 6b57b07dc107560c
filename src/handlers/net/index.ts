import type { NetHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';
import { net_listening } from './listening.js';
import { net_peerCount } from './peerCount.js';
import { net_version } from './version.js';

/** Bound through a variable so that methods still marked `x-unavailable` may already have a handler here. */
const implemented = { net_version, net_listening, net_peerCount };

export const netHandlers: NetHandlers<HandlerContext> = implemented;
