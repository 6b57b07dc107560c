/**
 * "Did you mean": for an unknown method name, the served methods it is one slip away from. A slip is a case
 * difference (eth_getbalance) or one edit: a character inserted, deleted, replaced, or two neighbours swapped
 * (optimal string alignment distance 1, compared without case).
 */

/** Whether `a` and `b` (both lower-case) are at most one insertion, deletion, substitution or transposition apart. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  // After the common prefix the rest must match once the one slip at `start` is taken out.
  if (a.length === b.length) {
    if (a.slice(start + 1) === b.slice(start + 1)) return true; // substitution
    return a[start] === b[start + 1] && a[start + 1] === b[start] && a.slice(start + 2) === b.slice(start + 2);
  }
  const [longer, shorter] = a.length > b.length ? [a, b] : [b, a];
  return longer.slice(start + 1) === shorter.slice(start);
}

/**
 * The served names `name` is one slip away from: those equal but for case first, then one-edit ones; none when
 * the name is itself served. Cheap for a hostile name: a length gap of two rules a candidate out before any work.
 */
export function suggestMethods(name: string, served: Iterable<string>): string[] {
  const wanted = name.toLowerCase();
  const sameButCase: string[] = [];
  const oneEdit: string[] = [];
  for (const candidate of served) {
    if (candidate === name) return [];
    const lower = candidate.toLowerCase();
    if (lower === wanted) sameButCase.push(candidate);
    else if (withinOneEdit(wanted, lower)) oneEdit.push(candidate);
  }
  return sameButCase.length > 0 ? sameButCase : oneEdit.sort();
}

/** " or "-joined, at most three (a longer list would be a guess, not a hint). */
export function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : `; did you mean ${suggestions.slice(0, 3).join(' or ')}?`;
}
