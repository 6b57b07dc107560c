/**
 * Why svc-node is behind on a row, keyed by the start of the workload label. Each entry says what backs it (a
 * measurement or a CPU profile) and what would close the gap; rows without an entry read "No profile yet".
 */
const transport =
  'Transport-bound: these calls do almost no work, so the HTTP stack is the ceiling. Measured (`npm run bench`, ' +
  'bench/results/latest.md): plain JSON-RPC calls now run at ~1.0 of a bare node:http echo on this machine, so ' +
  'node:http itself is the ceiling, while Ganache serves through native uWebSockets (performance-notes: ~41k req/s ' +
  'vs ~13k for node:http). Since 2026-12-07 a plain POST / over HTTP/1.1 keep-alive is read and answered straight ' +
  'from the socket (src/server/fast-http.ts; anything else goes to node:http): server CPU per eth_blockNumber ' +
  '0.196 -> 0.160 ms in an A/B at load (bench/results/rpc-path.md).';

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
  'per transfer, which on 2 cores competes with the node and the client (157 -> 148 tx/s between the two reports). ' +
  'Per warm ERC-20 transfer on the main thread (2026-12-07, bench/results/transfer-server-time.md round 14): ' +
  'assembly 1.25-1.5 ms (EVM 0.65-0.74, flush and roots 0.39-0.49), import 0.57-0.61 (head switch 0.23), pool ' +
  'admission 0.35, pool refresh 0.17; the one-buffer RLP encoder took ~5% off; the seal-check worker still spends ' +
  "2.4-2.9 ms per transfer (the library's own runTx and state flush). Since then the worker sets one checkpoint " +
  'per block and gets runs of ~4-8 blocks when transfers come one after another: 2.33 -> 2.07 ms per check ' +
  "(bench/results/seal-check.md round 2; ~80% of what is left is the library's execution, which the rule keeps). " +
  "Then (2026-12-07 evening, transfer-server-time.md rounds 15-17): V8's platform threads in this row are TurboFan's " +
  'first compiles of the hot set in two isolates (main 2.1 s, seal-check worker 1.2 s of compile jobs over 820 ' +
  'transfers), not deopt loops (61 deopts in 1,220 transfers) nor GC (0.3-0.5 ms a transfer); arrays that changed ' +
  'map under optimised readers and the warm state renewed at 30M gas took a few recompiles away (below the noise), ' +
  "and the send now answers at its block's head switch with the pool refresh, seal-check job and block listeners " +
  'after the write: read -> write 0.83x paired, node CPU unchanged.';

const sealing =
  "Issue 40: the dev miner's assembly VM runs the call VMs' narrower library internals (exec/call-frames.ts: CALL " +
  'frames, memory words, storage and journal keys) and, since 2026-12-07, a frame loop that counts static gas as a ' +
  'number (exec/sync-step.ts, compared with an untouched library in a worker by gas-lane.test.ts); receipts, tries ' +
  "and blooms are written without the library's per-item arrays (codec/fast-rlp.ts, exec/fast-bloom.ts). Behind " +
  "Hardhat (one 60M block against our two 30M blocks) and Anvil: bench/burst-row.ts puts the row's main thread at " +
  "400-530 ms CPU under load, of which the EVM's frames and steps ~43%, runTx's own awaits and checks ~10%, GC " +
  '~8%, receipts and roots ~7%; V8 compiles on its threads during the first bursts (main-thread CPU 830 -> 340 ms ' +
  'over four bursts), and the row times three. Then (2026-12-07 afternoon) SLOAD/SSTORE as whole lane steps, ' +
  'KECCAK256 and LOG without hex strings, the environment readers without awaits, a bloom-position memo: ' +
  'main-thread CPU per 1,000 sealed 210 -> 160 ms in process (36 alternating runs, bench/seal-burst.ts), 290 -> 250 ' +
  'in the node (bench/burst-row.ts); lean-storage.test.ts compares random programs with the library. Next: a ' +
  'synchronous runTx (runTx and runCall are now the largest allocators, ~12 KiB a transfer).';

const ceiling =
  "A reference row, not node work: the harness's fetch client making sequential HTTP/1.1 calls that do nothing, so " +
  'it differs between nodes only by their HTTP stacks (see the transport rows) and run-to-run noise. It bounds the ' +
  'transfer row above it: no node can do better than its own ceiling.';

const bulk =
  'Bulk path (issue 16 item 2, issue 40): empty blocks are built in chunks with one LevelDB batch each, each ' +
  "header a copy of the chunk's first, the reward credited straight into the account trie, the chunk's keys and " +
  'encodings in shared 64 KB pages (db/record-arena.ts) and 6 records a block. Over JSON-RPC an empty block costs ' +
  "~99 µs of node CPU (main thread ~57; bench/bulk-blocks.ts --rpc, 2026-12-07), keccak ~40% of the main thread's " +
  "part. The row's node CPU splits ~40% for the 100 mine calls and ~60% for the 100 transfers sent and mined after " +
  'them (each polled every ms; ~0.7 s of it the seal-check worker re-executing them), so the transfers are the ' +
  "larger half (see the sent-and-mined row). Hardhat's hardhat_mine makes no block objects; ~30 µs a block would " +
  'need no Block or header object per block and one canonical-index record per run. Measured since with CPU-clock ' +
  'samples of every thread (bench/perf-blocks.ts, 2026-12-07 evening): 68-86 µs a block, main thread ~42 after two ' +
  "cuts (the header run's WeakMap, prom-client's per-block updates); keccak ~4.5, LevelDB ~7.5 and its kernel " +
  "writes ~6, the database puts ~3 and the reward credit's encoding ~3.5 are ~25 µs before any object or event, " +
  "and a fresh node's TurboFan ~11: the objects and the per-block index record are worth ~5-6 µs, not 70.";

const fewLogs =
  "Issue 40 (2026-12-07): recent blocks' log-index entries are held in memory, fed by the index writes themselves " +
  '(chain/logs/recent-postings.ts), so a query over the last 1,000 blocks reads no LevelDB iterator (main-thread ' +
  'CPU per query 1.7-1.8 -> 1.1-1.3 ms at load, all threads 2.8-3.0 -> 1.5-2.0 ms; bench/logs-after-build.ts). ' +
  'What is left per query: the scan ~0.14 ms, formatting ~0.07, the socket write ~0.22, GC ~0.12, then the HTTP ' +
  "path; the first queries also meet the build's garbage (a full collection right after it) and its last seal " +
  'checks. Then (2026-12-07 afternoon) a block-log cache by block hash (8,192 logs, chain/logs/block-log-cache.ts) ' +
  "with each log's JSON bytes kept beside it and the answer written as one reused buffer: server CPU per steady " +
  'query 0.43 -> 0.34 ms (paired, bench/logs-steady-ab.ts), garbage 54.6 -> 32.3 KiB a query, and the socket fast ' +
  'path under it. About 1.1 ms of a ~1.5 ms query is the harness client; the five timed queries spread widely.';

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
