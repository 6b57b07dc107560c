/**
 * What the dispatcher tells about every call it answers, for whoever counts them (src/metrics implements it). Kept
 * beside the dispatcher so that the counting side depends on the RPC core and never on a transport.
 */
import type { Transport } from './context.js';

/** The method name an observer is given for a name the registry does not know (keeps label sets bounded). */
export const UNKNOWN_METHOD = '(unknown)';

export interface DispatchObserver {
  /**
   * One call answered: the method (or `UNKNOWN_METHOD`), its transport, how long the dispatcher took from the
   * method lookup to the answer, and the JSON-RPC error code when it failed. Request-shape errors (-32600,
   * -32700) never reach a method and are not reported.
   */
  observe(method: string, transport: Transport, seconds: number, errorCode: number | undefined): void;
}
