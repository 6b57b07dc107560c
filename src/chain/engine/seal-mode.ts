/**
 * How a chain's blocks are sealed. `ethash`: a real Ethash (Etchash) proof of work, as on mordor and etc. `instant`
 * (dev only, the dev default): no work at all, as geth's, Hardhat's and Anvil's dev chains; a block is sealed the
 * moment it is built, with nonce and mixHash zero.
 *
 * An instant-seal chain must never pass for a PoW chain, so it is another chain from its genesis on: its genesis
 * extraData reads "svc-node dev instant-seal" instead of "svc-node dev", which changes the genesis hash, hence the
 * EIP-2124 fork id and the devp2p STATUS (a PoW node refuses the peer at the handshake), and the data directory it
 * is stored in (a node opened in the other mode refuses it). Block by block the seal checks say the same: an
 * Ethash chain refuses a header with the zero seal as an instant-seal block, an instant chain refuses any other.
 */
import type { BlockHeader } from '@ethereumjs/block';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import type { SealVerifier } from '../rules/engine-types.js';
import type { NetworkDefinition } from '../networks/types.js';

export type SealMode = 'ethash' | 'instant';
export const SEAL_MODES: readonly SealMode[] = ['instant', 'ethash'];

/** Genesis extraData of the instant-seal dev chain (the Ethash dev chain's is "svc-node dev"). */
export const INSTANT_SEAL_GENESIS_EXTRA_DATA = 'svc-node dev instant-seal';

/** The instant-seal variant of a dev network definition (dev with or without checkpointing). */
export function instantSealNetwork(definition: NetworkDefinition): NetworkDefinition {
  if (definition.name !== 'dev') {
    throw new Error(`instant sealing is for the dev network only; ${definition.name} blocks carry an Ethash seal`);
  }
  const { genesis } = definition;
  const header = { ...genesis.header, extraData: utf8ToBytes(INSTANT_SEAL_GENESIS_EXTRA_DATA) };
  return { ...definition, genesis: { ...genesis, header } };
}

/** Nonce and mixHash all zero: the instant seal. (An Ethash seal with a zero mix digest would need a 2^-256 chance.) */
export function hasInstantSeal(header: BlockHeader): boolean {
  return header.nonce.every((b) => b === 0) && header.mixHash.every((b) => b === 0);
}

/**
 * The chain's seal check. `ethash` names an instant-seal block as such before Ethash would call it a bad mix digest;
 * `instant` accepts only the zero seal.
 */
export function sealVerifierFor(mode: SealMode, ethash: SealVerifier): SealVerifier {
  if (mode === 'instant') {
    return {
      verify: async (header) =>
        hasInstantSeal(header)
          ? true
          : `not an instant seal (nonce ${bytesToHex(header.nonce)}, mixHash ${bytesToHex(header.mixHash)}): ` +
            'this is an instant-seal dev chain, whose blocks carry nonce and mixHash zero and no proof of work',
    };
  }
  const instantOnEthash =
    'an instant-seal block (nonce and mixHash zero, no proof of work) on a chain sealed with Ethash: ' +
    'it comes from an instant-seal dev chain, which a proof-of-work node does not follow';
  const many = ethash.verifyMany?.bind(ethash);
  return {
    verify: async (header) => (hasInstantSeal(header) ? instantOnEthash : ethash.verify(header)),
    ...(many === undefined
      ? {}
      : {
          async verifyMany(headers) {
            const results = await many(headers);
            return results.map((r, i) => (hasInstantSeal(headers[i]) ? instantOnEthash : r));
          },
        }),
  };
}
