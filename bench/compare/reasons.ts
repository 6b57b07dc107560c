/**
 * Why svc-node is behind on a row, keyed by the start of the workload label. Each entry says what backs it (a
 * measurement or a CPU profile) and what would close the gap; rows without an entry read "No profile yet".
 */
const transport =
  'Transport-bound: these calls do almost no work, so the HTTP stack is the ceiling. Measured (`npm run bench`, ' +
  'bench/results/latest.md): plain JSON-RPC calls now run at ~1.0 of a bare node:http echo on this machine, so ' +
  'node:http itself is the ceiling, while Ganache serves through native uWebSockets (performance-notes: ~41k req/s ' +
  'vs ~13k for node:http). Closing it needs a different transport (e.g. uWebSockets.js), a design change.';

const evm =
  'Profiled (node --cpu-prof on the node, 16 connections, issue 16): the jump-destination analysis is cached per ' +
  'code, state reads come from a cache shared by the calls at one block, and message calls skip runTx\'s ' +
  'transaction bookkeeping (ahead of Hardhat at concurrency 1). What is left is ~50% the JS interpreter ' +
  '(runInterpreter/runStep), ~9% an object literal with several spreads that @ethereumjs/evm builds for every call ' +
  'frame (_executeCall, slow on V8), garbage collection ~7% and the HTTP path ~8%; Hardhat executes in Rust (EDR). ' +
  'Closing it needs a faster EVM: the spread fixed upstream, or a native one.';

const perBlock =
  'Profiled (node --cpu-prof --cpu-prof-interval 100, bundled node, 300 sequential ERC-20 transfers, issue 16): ' +
  'the seal is instant and the miner continues on the state and VM its previous block finished on. Per transfer ' +
  'the node\'s main thread is busy ~2.7 ms (Hardhat\'s whole send-and-mine round, client included, is ~2.5 ms), ' +
  'spread thin: answering its two requests ~0.34 ms (kernel socket writes ~0.15 ms each on this VM), the head ' +
  'switch and pool refresh ~0.2 ms, the LevelDB batch ~0.17 ms (awaited: a receipt is served only once its block ' +
  'is durable), the pool add ~0.15 ms (decode, native sender recovery), import ~0.13 ms, the JS EVM ~0.12 ms, trie ' +
  'writes, GC. No single part would close a 4x gap; Hardhat keeps its chain in memory and executes in Rust (EDR).';

const sealing =
  'Sealing 1,000 ERC-20 transfers is their execution in the JS EVM (~0.7 ms each) plus one LevelDB batch per block; ' +
  'Hardhat executes them in Rust (EDR). Needs a faster EVM (see eth_call).';

const bulk =
  'Bulk path (issue 16 item 2): empty blocks are built in chunks of 500 with one LevelDB batch each, one header per ' +
  'block encoded once, and the reward credited straight into the account trie (2x faster than before, ~2x ' +
  'Ganache); the transfer after each 99-block call continues on the miner\'s warm state, carried past the chunk. ' +
  'Profile of what is left: garbage collection ~19%, the LevelDB batch ~11% (its synchronous part copies ~10 ' +
  'records per block), building the library\'s header object ~9%.';

const fewLogs =
  'Measured (issue 16): the node spends ~0.8 ms per query (svc_rpc_request_duration_seconds over 200 queries); ' +
  'profiled, that is the log-index scan ~0.15 ms, writing the answer ~0.15-0.2 ms (kernel socket writes), the 10 ' +
  'logs formatted ~0.1 ms and read from the block and receipt caches ~0.1 ms; the rest of each figure is the ' +
  'harness\'s round trip, and the five timed queries spread widely (1.5-4.8 ms in one run).';

const manyLogs =
  'Measured (issue 16): with the block and receipt caches at 256 entries, the 100 matching blocks are read from ' +
  'memory (a direct test: 10.5 -> 3.1 ms per query); the five timed queries spread widely, and the two runs since ' +
  'gave svc-node 4.2 and 6.1 ms against Hardhat 7.2 and 4.1 ms, so the order changes from run to run.';

export const knownReasons: ReadonlyMap<string, string> = new Map([
  ['eth_blockNumber', transport],
  ['eth_chainId', transport],
  ['eth_call', evm],
  ['build ', bulk],
  ['eth_getLogs over 1000 blocks', fewLogs],
  ['eth_getLogs over 10000 blocks', manyLogs],
  ['200 transfers, each sent and mined', perBlock],
  ['then sealing all', sealing],
  ['1000 transfers: submit + seal', sealing],
]);
