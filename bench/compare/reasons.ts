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
  'Issue 40: calls run on a worker thread (exec.workers, default cores - 1) over the block state read through the ' +
  "main thread, and a call's own cost fell from ~280 to ~50-120 µs of CPU (call VMs build CALL frames without " +
  "@ethereumjs/evm's message and run-state copies, reuse 8 kB memories, convert words without hex strings: " +
  'exec/call-frames.ts, call-opcodes.ts, call-journal.ts; random calls and bytecode compared with runTx). Ahead of ' +
  'Hardhat at every concurrency; behind Anvil: per call ~50% is still the JS interpreter (runStep, its promises for ' +
  'dynamic-gas opcodes, bigint gas), ~80 kB allocated (GC 11-15%), and with 2 cores the main thread (HTTP, JSON, ' +
  'the message to the worker) and autocannon share the CPUs the worker needs. Anvil executes in Rust (revm).';

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
  'Hardhat execute in Rust (revm, EDR); closing the rest needs an EVM path without those objects. Issue 40 ' +
  '(profile of the node, transfer-phases/transfer-server-time): no item above a few percent: pool admission (decode ' +
  "and sender recovery) 8-10%, GC ~10%, the LevelDB batch's synchronous part ~8%, the flat-table diff (a trie walk) " +
  '~5%, the state-root batch ~4.5%, the canonical switch ~3.5%, receipts and indexes ~2% each. The lean frames ' +
  'of the sealing row did not move this one: an ERC-20 transfer is small next to the per-block and per-send costs. ' +
  "Since then the flat table's diff comes from the miner's list of changed leaves (no trie walk; ~0.3 ms less CPU " +
  'per transfer in a paired run), and every block sealed on a narrow path is re-executed by @ethereumjs/vm on a ' +
  "seal-check worker (exec/seal-checker.ts, issue 40): ~2.3 ms of worker CPU and ~2 ms on V8's shared threads " +
  'per transfer, which on 2 cores competes with the node and the client (157 -> 148 tx/s between the two reports).';

const sealing =
  "Issue 40: the dev miner's assembly VM runs the call VMs' narrower library internals (exec/call-frames.ts: CALL " +
  'frames, memory words, storage and journal keys), a third less allocated per ERC-20 transfer; sealing 1,000 in ' +
  'process went from ~389 to ~277 ms (bench/seal-burst.ts). Ahead of Hardhat (which seals them in one block: its ' +
  'default gas limit is 60M; Anvil and svc-node use 30M and two blocks). Behind Anvil: the transfers still run in ' +
  "@ethereumjs's JS interpreter (runStep and its promises, bigint gas) with ~190 KiB allocated each; Anvil runs revm.";

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
  "batch's synchronous copy ~5.5%; the header work that was ~9% is gone. Since then an empty block stores no body " +
  'or receipts record (its header commits to both being empty: 7 records, header, number, total difficulty, ' +
  "canonical hash and 3 trie nodes), the chain's activity log does no per-block work while its lines are dropped, " +
  'and the bulk part costs ~10-15% less node CPU (in-process and over JSON-RPC); the row did not move, since the ' +
  "100 sent-and-mined transfers are about half of it and Hardhat's whole row takes ~0.9 s.";

const fewLogs =
  'Measured (issue 16): the node spends ~0.8 ms per query (svc_rpc_request_duration_seconds over 200 queries); ' +
  'profiled, that is the log-index scan ~0.15 ms, writing the answer ~0.15-0.2 ms (kernel socket writes), the 10 ' +
  'logs formatted ~0.1 ms and read from the block and receipt caches ~0.1 ms; the rest of each figure is the ' +
  "harness's round trip, and the five timed queries spread widely (1.5-4.8 ms in one run).";

const manyLogs =
  'Measured (issue 16): with the block and receipt caches at 256 entries, the 100 matching blocks are read from ' +
  'memory (a direct test: 10.5 -> 3.1 ms per query); the five timed queries spread widely, and the two runs since ' +
  'gave svc-node 4.2 and 6.1 ms against Hardhat 7.2 and 4.1 ms, so the order changes from run to run.';

const memory =
  'Issue 40: the execution worker (exec.workers, default cores - 1) holds its own V8 heap and engine modules: a ' +
  'fresh dev node after three eth_calls had 101 MiB resident with --exec.workers 0 and 142 MiB with 1. The rest of ' +
  'the rise since 2026-11-26 (183 MiB then) is not profiled yet; --exec.workers 0 gives the memory back. The ' +
  'seal-check worker (issue 40, started with the first block it checks) is a second heap with an LRU of up to ' +
  '200,000 trie nodes in that run (50,000 since).';

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
  ['resident memory', memory],
]);
