/**
 * The narrow port through which a forked chain reads another node's state (fork mode, `--fork-url`). The engine
 * calls it; the JSON-RPC client that implements it lives outside the engine and is handed in by the composition
 * root, so the engine stays free of transports. Every answer is checked here before use (proofs against the pinned
 * state root, code against its hash, headers against their hash), so a wrong upstream cannot plant wrong values.
 */

/** A header as RLP field values (what `BlockHeader.raw()` gives), with the total difficulty the upstream reports. */
export interface UpstreamHeader {
  readonly values: readonly Uint8Array[];
  /** The hash the upstream gives the block (checked against the values' hash). */
  readonly hash: Uint8Array;
  readonly totalDifficulty: bigint;
}

/** An EIP-1186 proof: the account's path and one path per requested slot (in the order asked). */
export interface UpstreamProof {
  readonly accountProof: readonly Uint8Array[];
  readonly storageProofs: readonly (readonly Uint8Array[])[];
}

export interface ForkUpstream {
  /** Where the state comes from, for messages (the URL without credentials). */
  readonly name: string;
  /** The block a new fork starts on: the configured height, or the upstream's head minus a few. Asked once. */
  pinnedBlock(): Promise<bigint>;
  /** The canonical header at `number`. */
  header(number: bigint): Promise<UpstreamHeader>;
  proof(address: Uint8Array, slots: readonly Uint8Array[], block: bigint): Promise<UpstreamProof>;
  code(address: Uint8Array, block: bigint): Promise<Uint8Array>;
}

/**
 * The upstream failed or answered something that does not check out. The JSON-RPC layer answers it with -32000 and
 * this message, never with a value: an unread account is not an empty one.
 */
export class ForkUpstreamError extends Error {
  constructor(upstream: string, reason: string, options?: ErrorOptions) {
    super(`fork upstream ${upstream} failed: ${reason}`, options);
    this.name = 'ForkUpstreamError';
  }
}

/** The ForkUpstreamError in an error's cause chain (the EVM and the trie wrap what they catch), if any. */
export function forkUpstreamErrorIn(err: unknown): ForkUpstreamError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++)
    if (e instanceof ForkUpstreamError) return e;
  return undefined;
}
