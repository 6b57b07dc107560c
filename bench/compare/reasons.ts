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
  'Every svc-node dev block is a real Ethash/Etchash seal (difficulty 2, ~2 light hashes of ~10 ms each: ' +
  'performance-notes, and hashimotoLightInto/mineLight show in the profile); Ganache and Hardhat seal nothing. ' +
  'That bounds sequential send-and-mine and block production at tens of blocks per second. Faster sealing ' +
  '(worker threads, less allocation in the FNV loops) or a dev seal mode would close it.';

export const knownReasons: ReadonlyMap<string, string> = new Map([
  ['eth_blockNumber', transport],
  ['eth_chainId', transport],
  ['eth_call', evm],
  ['build ', seal],
  ['200 transfers, each sent and mined', seal],
]);
