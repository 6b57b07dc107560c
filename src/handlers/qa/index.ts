import type { QaHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../context.js';
import { qa_mineBlocks } from './mineBlocks.js';

/**
 * The qa_* methods available so far; the others answer -32004 until their issue lands. Bound through a
 * variable so this compiles before and after codegen makes qa_mineBlocks part of the interface.
 */
const implemented = { qa_mineBlocks };

export const qaHandlers: QaHandlers<HandlerContext> = implemented;
