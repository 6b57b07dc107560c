/**
 * How many entries the next page of a byte-bounded range walk reads. Every entry read costs a LevelDB point read
 * (the leaves of the state trie are keyed by hash, so no two are near each other), and the walk's last page is
 * cut where the answer's byte budget runs out: pages of a fixed 1,024 accounts read ~280 leaves for nothing per
 * 64 KiB answer of small accounts (~1,770 of them, two pages), ~14 % of a snap server's account reads. The page
 * is sized instead from what is left of the budget and the entries' mean size so far (`firstGuess` bytes each
 * before any was seen), plus one: the walk then ends within a few entries of the cut.
 */
const MIN_PAGE = 16;

export function nextPageSize(
  maxPage: number,
  bytesLeft: number,
  seen: { readonly bytes: number; readonly count: number },
  firstGuess: number,
): number {
  const mean = seen.count === 0 ? firstGuess : seen.bytes / seen.count;
  const wanted = Math.ceil(Math.max(0, bytesLeft) / Math.max(1, mean)) + 1;
  return Math.max(1, Math.min(maxPage, Math.max(MIN_PAGE, wanted)));
}
