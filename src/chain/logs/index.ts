/** Event logs: shapes, matching, the persistent log index and eth_getLogs-style queries. */
export * from './types.js';
export { LimitExceededError, UnknownBlockError } from './errors.js';
export { compileCriteria, matchesLog, bloomMayMatch, type CompiledCriteria } from './match.js';
export { logsOfBlock } from './block-logs.js';
export {
  indexWrites,
  unindexWrites,
  LogIndex,
  LOG_INDEX_TAG,
  decodeLogIndexKey,
  logIndexEntries,
  type IndexableBlock,
  type KeyIterator,
  type LogIndexEntry,
  type LogIndexReader,
} from './log-index.js';
export {
  LogQueries,
  DEFAULT_MAX_BLOCK_RANGE,
  DEFAULT_MAX_RESULTS,
  type LogQueryLimits,
  type LogQueryOptions,
} from './query.js';
