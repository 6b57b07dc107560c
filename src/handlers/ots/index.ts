/** Otterscan's ots_* methods (and the erigon_getHeaderByNumber it probes with): read-only explorer queries. */
import type { OtsHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** Otterscan 2.x asks for at least this level (its MIN_API_LEVEL); Erigon and Anvil answer it too. */
const API_LEVEL = 8;

export const otsHandlers: OtsHandlers<HandlerContext> = {
  ...methodHandlers.ots,
  ots_getApiLevel: () => API_LEVEL,
};
