/** Every handler, by namespace: the object the dispatcher calls into. `tsc` checks it against the generated interfaces. */
import type { Handlers } from '../generated/handlers.js';
import { adminHandlers } from './admin/index.js';
import { anvilHandlers } from './anvil/index.js';
import { checkpointingHandlers } from './checkpointing/index.js';
import type { HandlerContext } from '../rpc/context.js';
import { debugHandlers } from './debug/index.js';
import { ethHandlers } from './eth/index.js';
import { ieleHandlers } from './iele/index.js';
import { mcpHandlers } from './mcp/index.js';
import { netHandlers } from './net/index.js';
import { otsHandlers } from './ots/index.js';
import { personalHandlers } from './personal/index.js';
import { qaHandlers } from './qa/index.js';
import { rpcHandlers } from './rpc/index.js';
import { svcHandlers } from './svc/index.js';
import { testHandlers } from './test/index.js';
import { txpoolHandlers } from './txpool/index.js';
import { traceHandlers } from './trace/index.js';
import { web3Handlers } from './web3/index.js';

export type { HandlerContext } from '../rpc/context.js';

export const handlers: Handlers<HandlerContext> = {
  eth: ethHandlers,
  web3: web3Handlers,
  net: netHandlers,
  personal: personalHandlers,
  debug: debugHandlers,
  trace: traceHandlers,
  qa: qaHandlers,
  checkpointing: checkpointingHandlers,
  svc: svcHandlers,
  test: testHandlers,
  anvil: anvilHandlers,
  iele: ieleHandlers,
  mcp: mcpHandlers,
  rpc: rpcHandlers,
  txpool: txpoolHandlers,
  admin: adminHandlers,
  ots: otsHandlers,
};
