/**
 * Mining calls on a chain whose consensus is not proof of work (test-mode NoProof chains). The handlers map
 * this to the product's error 200, "The mining algorithm is not pow".
 */
export class MiningUnavailableError extends Error {
  constructor(
    /** The call that was refused, e.g. `getWork`. */
    readonly operation: string,
  ) {
    super('The mining algorithm is not pow');
    this.name = 'MiningUnavailableError';
  }
}

export function isMiningUnavailableError(err: unknown): err is MiningUnavailableError {
  return err instanceof MiningUnavailableError;
}
