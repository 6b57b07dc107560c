/**
 * EIP-2124 fork ids live in the engine (src/chain/rules/fork-id.ts) since eth_config reports them too; p2p's
 * STATUS, ENR and peer checks keep importing them from here.
 */
export { crc32, crc32Portable, forkBlocksOf, ForkIdTable, type ForkId } from '../chain/index.js';
