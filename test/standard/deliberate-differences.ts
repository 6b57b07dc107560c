/**
 * Where this node's input schemas deliberately accept less than ethereum/execution-apis, and why. The input audit
 * (input-audit.test.ts) fails on any difference this list does not cover, and on any entry that no longer
 * matches a difference; each entry's `docs` sentence must be in the method's description in openrpc.json, which
 * the docs portal shows on the method page.
 *
 * Everything else the standard accepts, this node accepts: where the standard is looser than geth and core-geth
 * (odd-length byte strings, more than four topics) the entries below follow geth, so no client that works against
 * geth breaks here.
 *
 * The audit reads the standard from the npm package @metamask/api-specs (see published-standard.ts). That package
 * leaves out eth_sign and carries MetaMask's own eth_sendTransaction, so the entries for those two methods are
 * not re-checked by the audit; they hold against the current execution-apis all the same, and stay stated.
 * Where the package is merely older than execution-apis, the differences are in published-copy-lags.ts.
 */
import type { DifferenceKind } from './input-audit.js';

export interface DeliberateDifference {
  readonly method: string;
  /** Our param name. */
  readonly param: string;
  readonly kind: DifferenceKind;
  /** For rejects-value: whether a rejected standard sample is one this entry explains. */
  readonly covers?: (value: unknown) => boolean;
  readonly why: string;
  /** A sentence that must appear in the method's description (openrpc.json → docs portal). */
  readonly docs: string;
}

export const ODD_BYTES_DOCS =
  'Deliberately stricter than ethereum/execution-apis: byte strings need an even number of hex digits (`0x1` names no byte string; geth refuses it too).';
export const TOPICS_DOCS =
  'Deliberately stricter than ethereum/execution-apis: at most 4 topic positions (a log has at most 4 topics; geth refuses more too).';
export const REQUIRED_BLOCK_DOCS =
  'Deliberately stricter than ethereum/execution-apis: the block is required (the standard leaves `required` unset here, which OpenRPC reads as optional, but there is nothing to count without a block; geth requires it too).';
export const FROM_DOCS =
  'Deliberately stricter than ethereum/execution-apis: `from` is required, since it names the key that signs (geth fails a request without it with an unknown-account error).';

const ODD_BYTES_WHY =
  "The standard's `bytes` pattern ^0x[0-9a-f]*$ admits an odd digit count; half a byte is no byte string, and geth (hexutil.Bytes) refuses it.";

/** `0x` and an odd number of hex digits. */
export const isOddHex = (v: unknown): boolean => typeof v === 'string' && /^0x(?:[0-9a-fA-F]{2})*[0-9a-fA-F]$/.test(v);

/** The byte-string fields of the standard's GenericTransaction. */
const TX_BYTES_FIELDS = ['input', 'data'] as const;
const TX_BYTES_LIST_FIELDS = ['blobs', 'commitments', 'proofs'] as const;

/** A transaction object with an odd-length byte string in one of its byte-string fields. */
export function hasOddTxBytes(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const tx = v as Record<string, unknown>;
  return (
    TX_BYTES_FIELDS.some((k) => isOddHex(tx[k])) ||
    TX_BYTES_LIST_FIELDS.some((k) => Array.isArray(tx[k]) && (tx[k] as unknown[]).some(isOddHex))
  );
}

const hasMoreThanFourTopics = (v: unknown): boolean =>
  v !== null &&
  typeof v === 'object' &&
  Array.isArray((v as { topics?: unknown }).topics) &&
  (v as { topics: unknown[] }).topics.length > 4;

const lacksFrom = (v: unknown): boolean => v !== null && typeof v === 'object' && !('from' in v);

const oddTxBytes = (method: string): DeliberateDifference => ({
  method,
  param: 'transaction',
  kind: 'rejects-value',
  covers: hasOddTxBytes,
  why: ODD_BYTES_WHY,
  docs: ODD_BYTES_DOCS,
});

export const DELIBERATE_DIFFERENCES: readonly DeliberateDifference[] = [
  oddTxBytes('eth_call'),
  oddTxBytes('eth_estimateGas'),
  oddTxBytes('eth_sendTransaction'),
  {
    method: 'eth_sendRawTransaction',
    param: 'signedTransaction',
    kind: 'rejects-value',
    covers: isOddHex,
    why: ODD_BYTES_WHY,
    docs: ODD_BYTES_DOCS,
  },
  {
    method: 'eth_sign',
    param: 'message',
    kind: 'rejects-value',
    covers: isOddHex,
    why: ODD_BYTES_WHY,
    docs: ODD_BYTES_DOCS,
  },
  {
    method: 'eth_sendTransaction',
    param: 'transaction',
    kind: 'rejects-value',
    covers: lacksFrom,
    why: "The standard's GenericTransaction requires no field, but the node must know which of its keys signs; geth fails such a request too.",
    docs: FROM_DOCS,
  },
  ...(['eth_getLogs', 'eth_newFilter'] as const).map(
    (method): DeliberateDifference => ({
      method,
      param: 'filter',
      kind: 'rejects-value',
      covers: hasMoreThanFourTopics,
      why: 'A log has at most 4 topics, so a fifth position can never match; geth answers "exceed max topics".',
      docs: TOPICS_DOCS,
    }),
  ),
  ...(
    [
      ['eth_getBlockTransactionCountByHash', 'blockHash'],
      ['eth_getBlockTransactionCountByNumber', 'block'],
    ] as const
  ).map(
    ([method, param]): DeliberateDifference => ({
      method,
      param,
      kind: 'requires-param',
      why: "The standard's YAML omits `required` on these params (OpenRPC's default is optional), unlike every other block param it defines; geth requires them.",
      docs: REQUIRED_BLOCK_DOCS,
    }),
  ),
];
