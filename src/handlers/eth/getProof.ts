import type { EthGetProofParams, EthGetProofResult } from '../../generated/types.js';
import { engineOf, stateAt } from '../block-ref.js';
import type { HandlerContext } from '../context.js';
import { bytesFromHex, hexFromBytes, slotFromHex, toQuantity } from '../hex.js';

/**
 * EIP-1186 proof against the state root of `block`: the account's trie path and one storage proof per
 * requested key (echoed as given). An absent account proves its absence with zero fields.
 */
export async function eth_getProof([address, storageKeys, block]: EthGetProofParams, ctx: HandlerContext): Promise<EthGetProofResult> {
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
      key: storageKeys[i],
      value: toQuantity(slot.value),
      proof: slot.proof.map(hexFromBytes),
    })),
  };
}
