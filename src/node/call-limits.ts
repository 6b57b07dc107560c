/** The limits of the methods that execute on request (eth_call and its kin), read from the settings table. */
import type { SettingsReader } from './settings/read.js';

export interface CallLimits {
  /** Most gas an eth_call / eth_estimateGas request runs with; all of one eth_simulateV1's calls together. */
  readonly gasCap: bigint;
  /** Longest run of one request (0 = no limit). */
  readonly timeoutMs: number;
  /** Most blocks one eth_simulateV1 (bundles one eth_callMany) may hold. */
  readonly simulateMaxBlocks: number;
  /** Longest eth_sendRawTransactionSync waits for its receipt, and its default wait. */
  readonly sendSyncTimeoutMs: number;
}

export function callLimitsOf(get: SettingsReader['get']): CallLimits {
  return {
    gasCap: BigInt(get('network.rpc.call.gas-cap')),
    timeoutMs: get('network.rpc.call.timeout'),
    simulateMaxBlocks: get('network.rpc.call.simulate-max-blocks'),
    sendSyncTimeoutMs: get('network.rpc.send-sync-timeout'),
  };
}
