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
  "code, state reads come from a cache shared by the calls at one block, and message calls skip runTx's " +
  'transaction bookkeeping (ahead of Hardhat at concurrency 1). What is left is ~50% the JS interpreter ' +
  '(runInterpreter/runStep), ~9% an object literal with several spreads that @ethereumjs/evm builds for every call ' +
  'frame (_executeCall, slow on V8), garbage collection ~7% and the HTTP path ~8%; Hardhat (EDR) and Anvil (revm) ' +
  'execute in Rust. ' +
  'Closing it needs a faster EVM: the spread fixed upstream, or a native one.';

const perBlock =
  'Bound first by the harness client, then by the engine. The next row, "client ceiling", is the harness\'s own ' +
  'cost: the same two calls per transfer with nothing sent; no node can beat its ceiling. The instant-seal dev ' +
  "chain answers a send once its block is the in-memory head and writes the block's LevelDB batch behind it, in " +
  'order (setting db.write-behind, dev only; test/crash/write-behind.test.ts and the crash loop check that a kill -9 ' +
  'loses at most the unwritten tail). This row warms each node with 20 transfers, so it shows the first minutes of ' +
  "a test suite, when V8 still runs svc-node's code unoptimised and compiles it on its worker threads. Measured " +
  '2026-11-26 on a quiet machine (`THREADS=1 WARMUP=<n> TARGETS=<nodes> N=200 ROUNDS=3 npx tsx ' +
  'bench/transfer-server-time.ts`, median server time per transfer): after 50 warm-up transfers svc-node 5.42 ms, ' +
  'Anvil 1.60, Hardhat 1.62; after 4,000 svc-node 2.06 ms, Hardhat 0.62 (Anvil 16.98 in an earlier run: its cost ' +
  'grows with its chain). V8 tiering flags (--maglev, --always-sparkplug, a lower --interrupt-budget) did not ' +
  'shorten the warm-up. ' +
  'What a warm transfer still costs (profile, ~2.1-2.9 ms of main-thread CPU): the JS EVM and its per-message ' +
  "objects, @ethereumjs's runTx, pool admission with sender recovery, garbage collection, the import, two block " +
  'headers and the state root, each 0.1-0.25 ms (bench/results/transfer-server-time.md, rounds 5-9). Anvil and ' +
  'Hardhat execute in Rust (revm, EDR); closing the rest needs an EVM path without those objects.';

const sealing =
  "Sealing is the transfers' execution: 1,000 ERC-20 transfers through @ethereumjs's runTx in the JS EVM (~0.8 ms " +
  'each, see the sent-and-mined row) plus one LevelDB batch per block; Hardhat (EDR) and Anvil (revm) execute them ' +
  'in Rust, Hardhat ~0.25 ms ' +
  'each. Submitting is near the client\'s ceiling for every node (the row "client ceiling: 1000 calls": svc-node ' +
  "609 ms on 2026-11-24), so 1.5x Hardhat (925 ms in that run) would leave ~320 ms for the node's share of 1,000 " +
  'submissions and the sealing of 1,000 transfers, which the JS EVM alone needs ~800 ms for. Needs a faster EVM.';

const ceiling =
  "A reference row, not node work: the harness's fetch client making sequential HTTP/1.1 calls that do nothing, so " +
  'it differs between nodes only by their HTTP stacks (see the transport rows) and run-to-run noise. It bounds the ' +
  'transfer row above it: no node can do better than its own ceiling.';

const bulk =
  'Bulk path (issue 16 item 2, issue 40): empty blocks are built in chunks with one LevelDB batch each, each ' +
  "header a copy of the chunk's first (proven equal to the library's) encoded from its items, and the reward " +
  "credited straight into the account trie; the transfer after each 99-block call continues on the miner's warm " +
  'state and its VM, carried past the chunk. Half of the row is those 100 transfers (each sent, mined and its ' +
  "nonce polled every ms; Hardhat's hardhat_mine makes no block objects). Profile of the node over the build " +
  '(issue 40, loaded machine): garbage collection ~9% of samples, the socket writes of the polls ~6%, the LevelDB ' +
  "batch's synchronous copy ~5.5% (~8 records per empty block: header, body, receipts, number, total difficulty, " +
  "canonical hash, the coinbase's leaf and the root); the header work that was ~9% is gone.";

const fewLogs =
  'Measured (issue 16): the node spends ~0.8 ms per query (svc_rpc_request_duration_seconds over 200 queries); ' +
  'profiled, that is the log-index scan ~0.15 ms, writing the answer ~0.15-0.2 ms (kernel socket writes), the 10 ' +
  'logs formatted ~0.1 ms and read from the block and receipt caches ~0.1 ms; the rest of each figure is the ' +
  "harness's round trip, and the five timed queries spread widely (1.5-4.8 ms in one run).";

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
  ['30 transfers, each sent and mined', perBlock],
  ['then sealing all', sealing],
  ['1000 transfers: submit + seal', sealing],
  ['200 transfers: submit + seal', sealing],
  ['client ceiling', ceiling],
]);
