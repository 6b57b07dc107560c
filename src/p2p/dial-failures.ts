/**
 * Why our own dials fail, counted by reason for the peer-search line (issue 44): behind a firewall an operator
 * sees "timed out" grow, with a wrong address "refused", without a route "unreachable", instead of a bare count.
 */

export const DIAL_FAILURE_REASONS = [
  'refused',
  'timedOut',
  'unreachable',
  'handshakeFailed',
  'tooManyPeers',
  'other',
] as const;
export type DialFailureReason = (typeof DIAL_FAILURE_REASONS)[number];
export type DialFailureCounts = Readonly<Record<DialFailureReason, number>>;

const BY_CODE: Readonly<Record<string, DialFailureReason>> = {
  ECONNREFUSED: 'refused',
  ETIMEDOUT: 'timedOut',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
};

/** The reason of a socket error while connecting; `connectTimedOut` when our own connect timer ended it. */
export function socketFailureReason(err: Error, connectTimedOut: boolean): DialFailureReason {
  if (connectTimedOut) return 'timedOut';
  return BY_CODE[(err as NodeJS.ErrnoException).code ?? ''] ?? 'other';
}

/** The reason of a dial whose socket connected but whose link closed before the eth handshake was done. */
export function linkFailureReason(closedWhy: string): DialFailureReason {
  return closedWhy.startsWith('TOO_MANY_PEERS') ? 'tooManyPeers' : 'handshakeFailed';
}

export class DialFailures {
  readonly #counts: Record<DialFailureReason, number> = Object.fromEntries(
    DIAL_FAILURE_REASONS.map((r) => [r, 0]),
  ) as Record<DialFailureReason, number>;

  note(reason: DialFailureReason): void {
    this.#counts[reason]++;
  }

  counts(): DialFailureCounts {
    return { ...this.#counts };
  }
}

const WORDS: Readonly<Record<DialFailureReason, string>> = {
  refused: 'refused',
  timedOut: 'timed out',
  unreachable: 'no route',
  handshakeFailed: 'handshake failed',
  tooManyPeers: 'too many peers',
  other: 'other',
};

/** "3 refused, 1 timed out"; empty when none failed. */
export function describeDialFailures(counts: DialFailureCounts): string {
  return DIAL_FAILURE_REASONS.filter((r) => counts[r] > 0)
    .map((r) => `${counts[r]} ${WORDS[r]}`)
    .join(', ');
}
