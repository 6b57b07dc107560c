import createKeccakHash from 'keccak';
import type { Web3Sha3Params, Web3Sha3Result } from '../../generated/types.js';
import type { HandlerContext } from '../context.js';
import { bytesFromHex, hexFromBytes } from '../hex.js';

/** Keccak-256 (not the NIST SHA3-256) of the given bytes, with the native `keccak` package. */
export function web3_sha3([data]: Web3Sha3Params, _ctx: HandlerContext): Web3Sha3Result {
  return hexFromBytes(createKeccakHash('keccak256').update(bytesFromHex(data)).digest());
}
