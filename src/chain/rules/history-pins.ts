/**
 * Blocks a network pins to its own history. ETC is the chain that refused the DAO fork: where a network pins block
 * 1,920,000 (as etc does), the blocks of ETH's DAO extraData window must not carry "dao-hard-fork", and every pinned
 * block must have its pinned hash. Checked before anything else of a header, so a node fed ETH's history (a file or
 * a peer) stops at the fork with the reason, not at some later state root.
 */
import { bytesToHex, equalsBytes, utf8ToBytes } from '@ethereumjs/util';
import type { NetworkDefinition } from '../networks/types.js';

export const DAO_FORK_BLOCK = 1_920_000n;
/** ETH's DAO fork marked its first ten blocks with this extraData (EIP-779). */
const DAO_WINDOW = 10n;
const DAO_EXTRA_DATA = utf8ToBytes('dao-hard-fork');

export interface PinnedHeader {
  readonly number: bigint;
  readonly extraData: Uint8Array;
  hash(): Uint8Array;
}

export function historyPinFault(def: NetworkDefinition, header: PinnedHeader): string | undefined {
  const pins = def.requiredBlockHashes;
  if (pins.length === 0) return undefined;
  const refusesDao = pins.some(([n]) => n === DAO_FORK_BLOCK);
  if (
    refusesDao &&
    header.number >= DAO_FORK_BLOCK &&
    header.number < DAO_FORK_BLOCK + DAO_WINDOW &&
    equalsBytes(header.extraData, DAO_EXTRA_DATA)
  ) {
    return `extraData "dao-hard-fork" marks ETH's DAO fork, which ${def.name} did not take`;
  }
  const pinned = pins.find(([n]) => n === header.number)?.[1];
  if (pinned !== undefined && !equalsBytes(header.hash(), pinned)) {
    return `block ${header.number} of ${def.name} must be ${bytesToHex(pinned)}, this one is ${bytesToHex(header.hash())}`;
  }
  return undefined;
}
