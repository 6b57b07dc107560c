/**
 * Contracts' console.log lines in the node's log, as Anvil and Hardhat print them: one info line per console.log
 * call, `msg` "console.log", the text in `text`, and the mined transaction's hash in `tx` (calls the RPC runs:
 * handlers/eth/console-lines.ts, with `call` naming the method instead).
 */
import { bytesToHex } from '@ethereumjs/util';
import type { ConsoleListener } from '../chain/index.js';
import type { Logger } from './logger.js';

/** Prints the lines of the transactions the dev miner includes. */
export function minedConsoleLines(log: Logger): ConsoleListener {
  return (txHash, lines) => {
    const tx = bytesToHex(txHash);
    for (const text of lines) log.info('console.log', { tx, text });
  };
}
