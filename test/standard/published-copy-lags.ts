/**
 * Where the published copy of the standard (the execution-apis methods in @metamask/api-specs, pinned in
 * package.json) still carries a schema that ethereum/execution-apis has since corrected, and this node follows the
 * correction (and geth). The audit finds these as differences; they are not this node being stricter than the
 * standard, so they are listed here rather than in deliberate-differences.ts (whose entries are stated on the
 * method pages).
 *
 * Each entry names what the installed package still says (`published`): input-audit.test.ts checks that the
 * package says exactly that, so moving to a version that carries the correction fails the test until the entry
 * is removed, and fails on any difference no entry here or in deliberate-differences.ts covers. `covers` is as
 * narrow as the defect: only the values the old schema accepts and the corrected one refuses.
 */
import type { DifferenceKind } from './input-audit.js';

export interface PublishedCopyLag {
  readonly method: string;
  /** Our param name. */
  readonly param: string;
  readonly kind: DifferenceKind;
  /** For rejects-value: whether a rejected sample is one the outdated schema alone accepts. */
  readonly covers?: (value: unknown) => boolean;
  /**
   * What the package's dist/build/openrpc.json says, at a dotted path: `components.schemas.<key>.…`, or
   * `methods.<method name>.params.<index>.…` (methods found by name). `undefined` means the key is absent.
   */
  readonly published: { readonly path: string; readonly value: unknown };
  /** What execution-apis says since, and why ours agrees with that. */
  readonly why: string;
}

/** The published uint256 pattern: `^` binds to the first alternative and `$` to the second only. */
const PUBLISHED_UINT256 = '^0x([1-9a-f]+[0-9a-f]{0,31})|0$';
/** The current standard's storage slot, bytesMax32 (0 to 32 bytes), in either case as geth and ours read it. */
const CURRENT_SLOT = /^0x[0-9a-fA-F]{0,64}$/;
const PUBLISHED_BYTE = '^0x([0-9a-fA-F]?){1,2}$';

const txField = (v: unknown, key: string): unknown =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;

/** A transaction whose `type` the published `byte` pattern accepts with no hex digit at all (`0x`). */
const hasEmptyType = (v: unknown): boolean => {
  const type = txField(v, 'type');
  return typeof type === 'string' && new RegExp(PUBLISHED_BYTE).test(type) && !/^0x[0-9a-fA-F]{1,2}$/.test(type);
};

/** A transaction with an access-list entry lacking `address` or `storageKeys`. */
const hasPartialAccessListEntry = (v: unknown): boolean => {
  const list = txField(v, 'accessList');
  return (
    Array.isArray(list) &&
    list.some((e) => e !== null && typeof e === 'object' && (!('address' in e) || !('storageKeys' in e)))
  );
};

/**
 * A slot the published uint256 pattern accepts only through its precedence defect (past 64 digits, or not hex at
 * all) and that the current standard's slot refuses too: never `0x00` or `0x`, which the current standard takes.
 */
const onlyThePublishedUint256Accepts = (v: unknown): boolean =>
  typeof v === 'string' && new RegExp(PUBLISHED_UINT256).test(v) && !CURRENT_SLOT.test(v);

const transactionLags = (method: string): PublishedCopyLag[] => [
  {
    method,
    param: 'transaction',
    kind: 'rejects-value',
    covers: hasEmptyType,
    published: { path: 'components.schemas.byte.pattern', value: PUBLISHED_BYTE },
    why: 'The published `byte` pattern lets `([0-9a-fA-F]?){1,2}` match no digit, so it takes "0x" as a transaction type; execution-apis #802 corrected it to ^0x[0-9a-f]{1,2}$ to match geth, which refuses an empty quantity.',
  },
  {
    method,
    param: 'transaction',
    kind: 'rejects-value',
    covers: hasPartialAccessListEntry,
    published: { path: 'components.schemas.AccessListEntry.required', value: undefined },
    why: 'The published AccessListEntry requires neither field; execution-apis #552 made `address` and `storageKeys` required, as EIP-2930 defines an entry and as geth decodes it.',
  },
];

/** Params the published copy leaves optional (no `required: true`) that execution-apis #633 made required. */
const filterParamLag = (method: string, param: string): PublishedCopyLag => ({
  method,
  param,
  kind: 'requires-param',
  published: { path: `methods.${method}.params.0.required`, value: undefined },
  why: 'The published copy omits `required` (OpenRPC then reads the param as optional); execution-apis #633 marked the filter object and filter ids required, as geth has always treated them.',
});

/** The uncle-count methods: execution-apis has since dropped them (#788); the published copy omits `required`. */
const uncleCountLag = (method: string, param: string): PublishedCopyLag => ({
  method,
  param,
  kind: 'requires-param',
  published: { path: `methods.${method}.params.0.required`, value: undefined },
  why: 'The published copy omits `required` on the block param (OpenRPC then reads it as optional) and execution-apis has since removed the uncle-count methods (#788), so no current standard says otherwise; there is nothing to count without a block, and geth requires it.',
});

export const PUBLISHED_COPY_LAGS: readonly PublishedCopyLag[] = [
  ...transactionLags('eth_call'),
  ...transactionLags('eth_estimateGas'),
  {
    method: 'eth_getStorageAt',
    param: 'position',
    kind: 'rejects-value',
    covers: onlyThePublishedUint256Accepts,
    published: { path: 'components.schemas.uint256.pattern', value: PUBLISHED_UINT256 },
    why: 'The published uint256 pattern anchors only its first alternative at the start and only "0" at the end, so it takes any "0x1…" of any length (past 32 bytes) and any string ending in 0 (such as "0"); execution-apis #605 corrected it, and the current standard takes a storage slot as bytesMax32 (0 to 32 bytes), which ours accepts (asserted in input-audit.test.ts and test/rpc/eth/inputs.test.ts).',
  },
  filterParamLag('eth_getLogs', 'filter'),
  filterParamLag('eth_newFilter', 'filter'),
  filterParamLag('eth_getFilterChanges', 'filterId'),
  filterParamLag('eth_getFilterLogs', 'filterId'),
  filterParamLag('eth_uninstallFilter', 'filterId'),
  uncleCountLag('eth_getUncleCountByBlockHash', 'blockHash'),
  uncleCountLag('eth_getUncleCountByBlockNumber', 'block'),
];

/** The value at `path` in the package's OpenRPC document (see PublishedCopyLag.published). */
export function publishedValue(document: unknown, path: string): unknown {
  const [head, name, ...rest] = path.split('.');
  let at: unknown = document;
  if (head === 'methods') {
    at = (document as { methods: { name: string }[] }).methods.find((m) => m.name === name);
    if (at === undefined) throw new Error(`the package has no method ${name}`);
  } else at = (document as Record<string, unknown>)[head!]?.[name as never];
  for (const key of rest) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
