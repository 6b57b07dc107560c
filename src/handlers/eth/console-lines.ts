/**
 * console.log lines of calls the RPC runs (eth_call, eth_estimateGas, debug_traceCall): decoded on the dev chain
 * unless `--quiet-console`, printed in the node's log at info with the method's name, as Anvil prints them.
 */
import type { HandlerContext } from '../../rpc/context.js';

/** `{ console: true }` to spread into a call's message when the node decodes console.log. */
export function consoleOf(ctx: HandlerContext): { console?: true } {
  return ctx.node.config.devOutput.console ? { console: true } : {};
}

/** Prints `lines` (a call's console.log output) under `call`, the method that ran it. */
export function printConsole(ctx: HandlerContext, call: string, lines: readonly string[] | undefined): void {
  if (lines === undefined) return;
  for (const text of lines) ctx.node.log.info('console.log', { call, text });
}
