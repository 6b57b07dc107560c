import type { DebugHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';
import { debugRawHandlers } from './getRaw.js';

/** State dumps over the real state trie (retesteth's post-state checks), the peers' announced details, geth-style traces. */
export const debugHandlers: DebugHandlers<HandlerContext> = {
  ...methodHandlers.debug,
  ...debugRawHandlers,
};
