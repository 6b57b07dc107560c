/**
 * eth_getLogs' answer as JSON text, joined from each log's own JSON. The engine returns the same log objects query
 * after query while its block log cache holds them (chain/logs/block-log-cache.ts), so each log is formatted (seven
 * hex conversions) and stringified once, and a repeated range costs a join: no object per log to build, walk and
 * collect again. Each text is `JSON.stringify(formatLog(log))`, so the answer is byte for byte the one
 * JSON.stringify makes of the formatted array.
 *
 * The texts are kept by log object (a WeakMap): they live exactly as long as the engine holds the log, so the engine
 * cache's bound (and owner) is theirs. A log the engine does not hold is formatted once and its text collected with it.
 */
import type { Log as EngineLog } from '../../chain/index.js';
import type { Log } from '../../generated/types.js';
import { RawJson } from '../../rpc/raw-json.js';
import { formatLog } from './log.js';

const texts = new WeakMap<EngineLog, string>();

/** `JSON.stringify(formatLog(log))`, made once per log object. */
export function logJson(log: EngineLog): string {
  let text = texts.get(log);
  if (text === undefined) {
    text = JSON.stringify(formatLog(log));
    texts.set(log, text);
  }
  return text;
}

/** The JSON array of the logs, formatted, as a result the dispatcher writes as it is. */
export function logsJson(logs: readonly EngineLog[]): Log[] {
  let text = '[';
  for (let i = 0; i < logs.length; i++) text += i === 0 ? logJson(logs[i]!) : `,${logJson(logs[i]!)}`;
  // The dispatcher sends a RawJson as it is (rpc/raw-json.ts); the handler's declared type stays the schema's.
  return new RawJson(`${text}]`) as unknown as Log[];
}
