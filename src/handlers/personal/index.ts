import type { PersonalHandlers } from '../../generated/handlers.js';
import type { HandlerContext } from '../../rpc/context.js';
import { methodHandlers } from '../methods.generated.js';

/** The personal_* methods: each exported under its own name by a file of this folder (methods.generated.ts). */
export const personalHandlers: PersonalHandlers<HandlerContext> = { ...methodHandlers.personal };
