/**
 * A mining call the chain's consensus cannot serve: on test-mode NoProof chains (`none`) any of them, the product's
 * error 200, "The mining algorithm is not pow"; on an instant-seal dev chain (`instant`) the external-miner calls
 * (work packages, seals, hash-rate reports), since its blocks carry no proof of work. The handlers map both to -32002.
 */
export class MiningUnavailableError extends Error {
  constructor(
    /** The call that was refused, e.g. `getWork`. */
    readonly operation: string,
    /** Why: the chain has no proof of work at all, or seals its blocks instantly. */
    readonly consensus: 'none' | 'instant' = 'none',
  ) {
    super(
      consensus === 'instant'
        ? `${operation} needs proof of work, and this chain seals its blocks instantly, without any`
        : 'The mining algorithm is not pow',
    );
    this.name = 'MiningUnavailableError';
  }
}

export function isMiningUnavailableError(err: unknown): err is MiningUnavailableError {
  return err instanceof MiningUnavailableError;
}
