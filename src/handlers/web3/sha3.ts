import { keccak256 } from '../../chain/index.js';
import type { Web3Sha3Params, Web3Sha3Result } from '../../generated/types.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/**
 * Keccak-256 (not the NIST SHA3-256) of the given bytes, with the engine's hasher (crypto.ts: the WASM keccak, or the
 * native `keccak` binding where WASM is unavailable); the `keccak` package's stream API is not loaded at start-up.
 */
export function web3_sha3([data]: Web3Sha3Params, _ctx: HandlerContext): Web3Sha3Result {
  return hexFromBytes(keccak256(bytesFromHex(data)));
}
