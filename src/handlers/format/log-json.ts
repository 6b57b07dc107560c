/**
 * eth_getLogs' answer as JSON text, joined from each log's own JSON. The engine returns the same log objects query
 * after query while its block log cache holds them (chain/logs/block-log-cache.ts), so each log is formatted (seven
 * hex conversions) and stringified once, and a repeated range costs one join: no object per log to build, walk and
 * collect again. Each log's text is `JSON.stringify(formatLog(log))`, so the answer is character for character the
 * one JSON.stringify makes of the formatted array.
 *
 * Text, not bytes: an answer of the usual size (10 logs, ~6 KiB) goes to the socket as every string answer does, in
 * one write, which node encodes on its stack; as bytes it took the corked, chunked write (JsonChunks) that no other
 * common answer takes, and on a node that has served a few queries that path still runs in the interpreter: ~0.2 ms
 * a query of the peer bench's row (bench/logs-perf.ts --mode row).
 *
 * The texts are kept by log object (a WeakMap of the engine's memo): they live exactly as long as the engine holds
 * the log, so the engine cache's bound (and owner) is theirs. A log the engine does not hold is formatted once and
 * collected with its text.
 */
import type { EngineMemo, Log as EngineLog } from '../../chain/index.js';
import type { Log } from '../../generated/types.js';
import { RawJson } from '../../rpc/raw-json.js';
import { formatLog } from './log.js';

/** `JSON.stringify(formatLog(log))`, kept once per log object in `kept`. */
export function logJson(log: EngineLog, kept: WeakMap<EngineLog, string>): string {
  let text = kept.get(log);
  if (text === undefined) {
    text = JSON.stringify(formatLog(log));
    kept.set(log, text);
  }
  return text;
}

/** The JSON array of the logs, formatted, as text the dispatcher sends as it is. */
export function logsJson(logs: readonly EngineLog[], memo: EngineMemo): Log[] {
  let text = '[';
  for (let i = 0; i < logs.length; i++) {
    if (i > 0) text += ',';
    text += logJson(logs[i]!, memo.logAnswerJson);
  }
  // The dispatcher sends a RawJson as it is (rpc/raw-json.ts); the handler's declared type stays the schema's.
  return new RawJson(`${text}]`) as unknown as Log[];
}
