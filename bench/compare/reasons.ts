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
  'Profiled (node --cpu-prof, 16 connections): VMs are now reused per block (3x faster than before), but each call ' +
  'still runs the JS interpreter (runInterpreter/runStep), re-analyses the contract\'s jump destinations ' +
  '(_getValidJumpDestinations) and reads storage through the trie; Hardhat executes in Rust (EDR/revm). Caching the ' +
  'jump-destination analysis per code hash would narrow it; matching a native EVM needs one.';

const seal =
  'The dev chain now seals instantly (issue 16: no hashing; `--seal ethash` keeps the real Ethash dev chain, ~2 ' +
  'light hashes of ~10 ms per block), as Ganache and Hardhat do. What each block still pays for is assembly, ' +
  'execution, one LevelDB batch with its log and address indexes, and the pool update: per-block costs that bulk ' +
  'writing (issue 16 item 2) removes. No profile of the instant-seal path yet.';

export const knownReasons: ReadonlyMap<string, string> = new Map([
  ['eth_blockNumber', transport],
  ['eth_chainId', transport],
  ['eth_call', evm],
  ['build ', seal],
  ['200 transfers, each sent and mined', seal],
]);
