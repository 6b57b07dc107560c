import type { EthGetProofParams, EthGetProofResult } from '../../generated/types.js';
import { engineOf, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../../rpc/context.js';
import { bytesFromHex, hexFromBytes, slotFromHex, toQuantity } from '../hex.js';

/**
 * EIP-1186 proof against the state root of `block`: the account's trie path and one storage proof per
 * requested key. An absent account proves its absence with zero fields.
 */
export async function eth_getProof(
  [address, storageKeys, block]: EthGetProofParams,
  ctx: HandlerContext,
): Promise<EthGetProofResult> {
  const state = await stateAt(engineOf(ctx), block);
  const proof = await state.getProof(bytesFromHex(address), storageKeys.map(slotFromHex));
  return {
    address,
    accountProof: proof.accountProof.map(hexFromBytes),
    balance: toQuantity(proof.balance),
    codeHash: hexFromBytes(proof.codeHash),
    nonce: toQuantity(proof.nonce),
    storageHash: hexFromBytes(proof.storageHash),
    storageProof: proof.storageProof.map((slot, i) => ({
      key: proofKeyOf(storageKeys[i]!),
      value: toQuantity(slot.value),
      proof: slot.proof.map(hexFromBytes),
    })),
  };
}

/**
 * A proof's key in the result's strict form, whatever spelling the request used: 32 bytes stay 32 bytes
 * (lowercase), anything shorter becomes a quantity (`0x01` → `0x1`), as geth answers.
 */
function proofKeyOf(requested: string): `0x${string}` {
  return requested.length === 66
    ? (requested.toLowerCase() as `0x${string}`)
    : toQuantity(BigInt(hexFromBytes(slotFromHex(requested))));
}
