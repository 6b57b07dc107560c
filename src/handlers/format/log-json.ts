/**
 * eth_getLogs' answer as JSON bytes, joined from each log's own JSON. The engine returns the same log objects query
 * after query while its block log cache holds them (chain/logs/block-log-cache.ts), so each log is formatted (seven
 * hex conversions) and stringified once, and a repeated range costs one copy into the answer's (reused) buffer: no object per
 * log to build, walk and collect again, and no string of the answer to flatten and encode on its way to the socket.
 * Each log's bytes are `JSON.stringify(formatLog(log))`, so the answer is byte for byte the one JSON.stringify makes
 * of the formatted array.
 *
 * The bytes are kept by log object (a WeakMap of the engine's memo): they live exactly as long as the engine holds
 * the log, so the engine cache's bound (and owner) is theirs. A log the engine does not hold is formatted once and collected with its bytes.
 */
import type { EngineMemo, Log as EngineLog } from '../../chain/index.js';
import type { Log } from '../../generated/types.js';
import { RawJson } from '../../rpc/raw-json.js';
import { formatLog } from './log.js';

/** The UTF-8 bytes of `JSON.stringify(formatLog(log))`, kept once per log object in `kept`; never to be written to. */
export function logJson(log: EngineLog, kept: WeakMap<EngineLog, Uint8Array>): Uint8Array {
  let bytes = kept.get(log);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(formatLog(log)), 'utf8');
    kept.set(log, bytes);
  }
  return bytes;
}

const OPEN = 0x5b; // [
const COMMA = 0x2c;
const CLOSE = 0x5d; // ]

/**
 * The answer is written in a buffer handed back once it is sent (the memo's `logsAnswerBuffer`, as the struct
 * logger's writer does, chain/trace/json-bytes.ts): a fresh buffer per answer (~6 KiB for the peer bench's 10 logs)
 * is an ArrayBuffer of its own, and that external memory alone made V8 run a full mark-compact every ~1,000 queries.
 * One buffer, at most SPARE_MAX bytes; an answer while it is out (or one never sent) takes a fresh one.
 */
const SPARE_MIN = 16 * 1024;
const SPARE_MAX = 1024 * 1024;

/** The JSON array of the logs, formatted, as bytes the dispatcher writes as they are. */
export function logsJson(logs: readonly EngineLog[], memo: EngineMemo): Log[] {
  const parts = logs.map((log) => logJson(log, memo.logAnswerBytes));
  let length = 2 + Math.max(0, parts.length - 1);
  for (const part of parts) length += part.length;
  const spare = memo.logsAnswerBuffer;
  const buf =
    spare !== undefined && spare.length >= length ? spare : Buffer.allocUnsafeSlow(Math.max(length, SPARE_MIN));
  memo.logsAnswerBuffer = undefined;
  buf[0] = OPEN;
  let at = 1;
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) buf[at++] = COMMA;
    buf.set(parts[i]!, at);
    at += parts[i]!.length;
  }
  buf[at] = CLOSE;
  const release = (): void => {
    if (buf.length <= SPARE_MAX) memo.logsAnswerBuffer = buf;
  };
  // The dispatcher sends a RawJson as it is (rpc/raw-json.ts); the handler's declared type stays the schema's.
  return new RawJson([buf.subarray(0, length)], release) as unknown as Log[];
}
