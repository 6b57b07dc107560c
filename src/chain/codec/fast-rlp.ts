/**
 * @ethereumjs's libraries (block headers, accounts, trie nodes, transactions, receipts) and this engine encode through
 * one shared `RLP.encode`, which makes an array for every item's length prefix and concatenates at every level. On
 * the dev miner's path that encoder was the largest allocation site left: ~45-55 KiB of the ~460 KiB allocated per
 * sent-and-mined ERC-20 transfer on the main thread (header hash, account leaves at the root and again for the flat
 * table, trie nodes, receipts, the stored records), and it is 3-5 × slower than writing the sizes first and then
 * every byte once (a header 7.3 → 1.5 µs, an account 2.2 → 0.6 µs, measured alone).
 *
 * `installFastRlpEncode` swaps the shared function for one that gives the same bytes through `encodeByteTree`
 * (rlp-encode.ts) and hands anything else (numbers, bigints, text) to the library's own. The engine installs it on
 * the main thread only: the seal-check worker, which re-executes sealed blocks as the reference, keeps the library's
 * encoder untouched (fast-rlp.test.ts compares the two on random trees and on the libraries' own objects).
 */
import { RLP } from '@ethereumjs/rlp';
import { encodeByteTree } from './rlp-encode.js';

/** The library's encoder, as it was when this module loaded (before any swap). */
const libraryEncode = RLP.encode;

/** The library's own encoder, whatever is installed now (tests compare against it). */
export const libraryRlpEncode: typeof RLP.encode = libraryEncode;

function fastEncode(input: Parameters<typeof RLP.encode>[0]): Uint8Array {
  return encodeByteTree(input) ?? libraryEncode(input);
}

/** Makes `RLP.encode` the one-buffer encoder for this thread; returns how to put the library's back. */
export function installFastRlpEncode(): () => void {
  if (RLP.encode !== libraryEncode) return () => undefined;
  RLP.encode = fastEncode;
  return () => {
    RLP.encode = libraryEncode;
  };
}
