/**
 * EIP-712 typed structured data: the digest keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(primaryType, message))
 * and its signature by an account key. The encoding is ethers' TypedDataEncoder (a well-kept implementation of the
 * standard's type and value rules), so this module only picks the types the primary type uses: ethers wants exactly
 * one root type, and wallets send `EIP712Domain` (and sometimes unrelated types) along.
 */
import { TypedDataEncoder, type TypedDataField } from 'ethers/hash';
import { ecsignRecovered } from '../base/crypto.js';
import { AccountError } from './errors.js';

/** What eth_signTypedData_v4 receives: the standard's JSON shape. */
export interface TypedDataPayload {
  readonly types: Readonly<Record<string, readonly TypedDataField[]>>;
  readonly primaryType: string;
  readonly domain: Readonly<Record<string, unknown>>;
  readonly message: Readonly<Record<string, unknown>>;
}

const invalidTypedData = (why: string) => new AccountError('invalid-signature', `invalid typed data: ${why}`);

/** The struct types reachable from `primaryType` (array suffixes stripped), without EIP712Domain. */
function typesUsedBy(payload: TypedDataPayload): Record<string, TypedDataField[]> {
  const used: Record<string, TypedDataField[]> = {};
  const visit = (name: string) => {
    if (name in used || name === 'EIP712Domain') return;
    const fields = payload.types[name];
    if (fields === undefined) return; // an atomic type (uint256, address, …)
    used[name] = [...fields];
    for (const field of fields) visit(field.type.replace(/(\[\d*\])+$/, ''));
  };
  if (payload.types[payload.primaryType] === undefined)
    throw invalidTypedData(`primaryType "${payload.primaryType}" is not among the types`);
  visit(payload.primaryType);
  return used;
}

/** The EIP-712 digest an account signs; malformed data throws an `AccountError` naming the problem. */
export function typedDataHash(payload: TypedDataPayload): Uint8Array {
  try {
    const hex = TypedDataEncoder.hash(payload.domain, typesUsedBy(payload), payload.message);
    return Buffer.from(hex.slice(2), 'hex');
  } catch (error) {
    if (error instanceof AccountError) throw error;
    throw invalidTypedData(
      error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error),
    );
  }
}

/** r ‖ s ‖ v (v = 27/28) over the EIP-712 digest, as geth's and MetaMask's eth_signTypedData_v4 return it. */
export function signTypedData(privateKey: Uint8Array, payload: TypedDataPayload): Uint8Array {
  const recovered = ecsignRecovered(typedDataHash(payload), privateKey); // recid ‖ r ‖ s
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1, 65), 0);
  signature[64] = recovered[0] + 27;
  return signature;
}
