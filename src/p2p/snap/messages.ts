/**
 * The snap/1 wire codec (ethereum/devp2p `caps/snap.md`, message layouts as geth and core-geth send them). What we
 * serve from it is in snap/serve.ts. Same conventions as the eth codec: decoders throw only `WireDecodeError`,
 * naming the message and the field.
 */
import { encodeRlp, type RlpItem as RlpTree, decodeRlpList } from '../../chain/index.js';
import { decodeMessage, type Shape, uintBytes, type RlpItem } from '../wire-shape.js';

export { WireDecodeError } from '../wire-shape.js';

export const SNAP_VERSION = 1;
/** Message codes snap/1 reserves (0x00–0x07), for the RLPx capability offsets. */
export const SNAP_MESSAGE_COUNT = 8;

export const SnapCode = {
  GetAccountRange: 0x00,
  AccountRange: 0x01,
  GetStorageRanges: 0x02,
  StorageRanges: 0x03,
  GetByteCodes: 0x04,
  ByteCodes: 0x05,
  GetTrieNodes: 0x06,
  TrieNodes: 0x07,
} as const;

export interface GetAccountRange {
  requestId: bigint;
  /** State root of the account trie to serve. */
  root: Uint8Array;
  /** First account hash to return. */
  origin: Uint8Array;
  /** Last account hash to return. */
  limit: Uint8Array;
  /** Soft limit of the response size. */
  bytes: bigint;
}

export interface SnapAccount {
  hash: Uint8Array;
  /**
   * RLP of the account in slim format: `[nonce, balance, storageRoot, codeHash]`, where the empty-trie root and the
   * empty-code hash are written as empty byte strings. On the wire it is embedded as a list, not as a byte string.
   */
  body: Uint8Array;
}

export interface AccountRange {
  requestId: bigint;
  accounts: SnapAccount[];
  proof: Uint8Array[];
}

export interface GetStorageRanges {
  requestId: bigint;
  root: Uint8Array;
  accounts: Uint8Array[];
  /** Slot hash to start from (empty = from the start); only meaningful for a single account. */
  origin: Uint8Array;
  /** Last slot hash (empty = to the end). */
  limit: Uint8Array;
  bytes: bigint;
}

export interface StorageSlot {
  hash: Uint8Array;
  /** The slot value as stored in the trie (RLP of the trimmed value). */
  body: Uint8Array;
}

export interface StorageRanges {
  requestId: bigint;
  /** One list of consecutive slots per requested account. */
  slots: StorageSlot[][];
  proof: Uint8Array[];
}

export interface GetByteCodes {
  requestId: bigint;
  hashes: Uint8Array[];
  bytes: bigint;
}

export interface ByteCodes {
  requestId: bigint;
  codes: Uint8Array[];
}

export interface GetTrieNodes {
  requestId: bigint;
  root: Uint8Array;
  /** Per account: the account-trie path, then storage-trie paths (compact-encoded when partial). */
  paths: Uint8Array[][];
  bytes: bigint;
}

export interface TrieNodes {
  requestId: bigint;
  nodes: Uint8Array[];
}

const encode = (value: RlpTree): Uint8Array => encodeRlp(value);

/**
 * The range answers are decoded into views of the message (wire-shape.ts decodeRlpViews): their hashes and values
 * are checked, written and dropped with the range, so holding the message that long costs nothing.
 */
const SNAP_ANSWER_VIEWS = { views: true } as const;

/** A hash bound of a storage range: empty, or up to 32 bytes (geth decodes these as plain byte strings). */
function readBound(s: Shape, item: RlpItem, field: string): Uint8Array {
  const b = s.bytes(item, field);
  if (b.length > 32) s.fail(field, `must be at most 32 bytes, got ${b.length}`);
  return b;
}

function readSlimAccount(s: Shape, item: RlpItem, field: string): Uint8Array {
  const [nonce, balance, root, codeHash] = s.list(item, field, 4) as [RlpItem, RlpItem, RlpItem, RlpItem];
  s.uint(nonce, `${field}.nonce`);
  s.uint(balance, `${field}.balance`, 32);
  for (const [value, name] of [
    [root, 'storageRoot'],
    [codeHash, 'codeHash'],
  ] as const) {
    const b = s.bytes(value, `${field}.${name}`);
    if (b.length !== 0 && b.length !== 32)
      s.fail(`${field}.${name}`, `must be empty (slim) or 32 bytes, got ${b.length}`);
  }
  // Canonical RLP, so re-encoding the decoded list gives back exactly the bytes the peer sent.
  return encodeRlp(item as RlpTree);
}

// ------------------------------------------------------------------ GetAccountRange (0x00) / AccountRange (0x01)

export function encodeGetAccountRange(req: GetAccountRange): Uint8Array {
  return encode([uintBytes(req.requestId), req.root, req.origin, req.limit, uintBytes(req.bytes)]);
}

export function decodeGetAccountRange(payload: Uint8Array): GetAccountRange {
  return decodeMessage('GetAccountRange', payload, (root, s) => {
    const [id, stateRoot, origin, limit, bytes] = s.list(root, 'message', 5) as RlpItem[];
    return {
      requestId: s.uint(id!, 'request id'),
      root: s.hash(stateRoot!, 'root'),
      origin: s.hash(origin!, 'origin'),
      limit: s.hash(limit!, 'limit'),
      bytes: s.uint(bytes!, 'bytes'),
    };
  });
}

export function encodeAccountRange(res: AccountRange): Uint8Array {
  // The body is embedded as the RLP list it encodes (geth: `rlp.RawValue`), so it is decoded here to be re-nested.
  return encode([uintBytes(res.requestId), res.accounts.map((a) => [a.hash, decodeRlpList(a.body)]), res.proof]);
}

export function decodeAccountRange(payload: Uint8Array): AccountRange {
  return decodeMessage(
    'AccountRange',
    payload,
    (root, s) => {
      const [id, accounts, proof] = s.list(root, 'message', 3) as RlpItem[];
      return {
        requestId: s.uint(id!, 'request id'),
        accounts: s.listOf(accounts!, 'accounts', (item, f) => {
          const [hash, body] = s.list(item, f, 2) as [RlpItem, RlpItem];
          return { hash: s.hash(hash, `${f}.hash`), body: readSlimAccount(s, body, `${f}.body`) };
        }),
        proof: s.byteStrings(proof!, 'proof'),
      };
    },
    SNAP_ANSWER_VIEWS,
  );
}

// ------------------------------------------------------------------ GetStorageRanges (0x02) / StorageRanges (0x03)

export function encodeGetStorageRanges(req: GetStorageRanges): Uint8Array {
  return encode([uintBytes(req.requestId), req.root, req.accounts, req.origin, req.limit, uintBytes(req.bytes)]);
}

export function decodeGetStorageRanges(payload: Uint8Array): GetStorageRanges {
  return decodeMessage('GetStorageRanges', payload, (root, s) => {
    const [id, stateRoot, accounts, origin, limit, bytes] = s.list(root, 'message', 6) as RlpItem[];
    return {
      requestId: s.uint(id!, 'request id'),
      root: s.hash(stateRoot!, 'root'),
      accounts: s.hashes(accounts!, 'accounts'),
      origin: readBound(s, origin!, 'origin'),
      limit: readBound(s, limit!, 'limit'),
      bytes: s.uint(bytes!, 'bytes'),
    };
  });
}

export function encodeStorageRanges(res: StorageRanges): Uint8Array {
  return encode([
    uintBytes(res.requestId),
    res.slots.map((list) => list.map((slot) => [slot.hash, slot.body])),
    res.proof,
  ]);
}

export function decodeStorageRanges(payload: Uint8Array): StorageRanges {
  return decodeMessage(
    'StorageRanges',
    payload,
    (root, s) => {
      const [id, slots, proof] = s.list(root, 'message', 3) as RlpItem[];
      return {
        requestId: s.uint(id!, 'request id'),
        slots: s.listOf(slots!, 'slots', (list, f) =>
          s.listOf(list, f, (slot, sf) => {
            const [hash, body] = s.list(slot, sf, 2) as [RlpItem, RlpItem];
            return { hash: s.hash(hash, `${sf}.hash`), body: s.bytes(body, `${sf}.body`) };
          }),
        ),
        proof: s.byteStrings(proof!, 'proof'),
      };
    },
    SNAP_ANSWER_VIEWS,
  );
}

// ------------------------------------------------------------------ GetByteCodes (0x04) / ByteCodes (0x05)

export function encodeGetByteCodes(req: GetByteCodes): Uint8Array {
  return encode([uintBytes(req.requestId), req.hashes, uintBytes(req.bytes)]);
}

export function decodeGetByteCodes(payload: Uint8Array): GetByteCodes {
  return decodeMessage('GetByteCodes', payload, (root, s) => {
    const [id, hashes, bytes] = s.list(root, 'message', 3) as RlpItem[];
    return {
      requestId: s.uint(id!, 'request id'),
      hashes: s.hashes(hashes!, 'hashes'),
      bytes: s.uint(bytes!, 'bytes'),
    };
  });
}

export function encodeByteCodes(res: ByteCodes): Uint8Array {
  return encode([uintBytes(res.requestId), res.codes]);
}

export function decodeByteCodes(payload: Uint8Array): ByteCodes {
  return decodeMessage('ByteCodes', payload, (root, s) => {
    const [id, codes] = s.list(root, 'message', 2) as RlpItem[];
    return { requestId: s.uint(id!, 'request id'), codes: s.byteStrings(codes!, 'codes') };
  });
}

// ------------------------------------------------------------------ GetTrieNodes (0x06) / TrieNodes (0x07)

export function encodeGetTrieNodes(req: GetTrieNodes): Uint8Array {
  return encode([uintBytes(req.requestId), req.root, req.paths, uintBytes(req.bytes)]);
}

export function decodeGetTrieNodes(payload: Uint8Array): GetTrieNodes {
  return decodeMessage('GetTrieNodes', payload, (root, s) => {
    const [id, stateRoot, paths, bytes] = s.list(root, 'message', 4) as RlpItem[];
    return {
      requestId: s.uint(id!, 'request id'),
      root: s.hash(stateRoot!, 'root'),
      paths: s.listOf(paths!, 'paths', (set, f) => {
        const list = s.byteStrings(set, f);
        if (list.length === 0) s.fail(f, 'must hold at least the account path');
        return list;
      }),
      bytes: s.uint(bytes!, 'bytes'),
    };
  });
}

export function encodeTrieNodes(res: TrieNodes): Uint8Array {
  return encode([uintBytes(res.requestId), res.nodes]);
}

export function decodeTrieNodes(payload: Uint8Array): TrieNodes {
  return decodeMessage('TrieNodes', payload, (root, s) => {
    const [id, nodes] = s.list(root, 'message', 2) as RlpItem[];
    return { requestId: s.uint(id!, 'request id'), nodes: s.byteStrings(nodes!, 'nodes') };
  });
}

// ------------------------------------------------------------------ empty answers

/**
 * The empty answer to a snap request for state we do not hold, echoing its request id; undefined for
 * codes that are not requests. Throws WireDecodeError for a malformed request.
 */
export function emptySnapResponse(
  code: number,
  payload: Uint8Array,
): { code: number; payload: Uint8Array } | undefined {
  switch (code) {
    case SnapCode.GetAccountRange:
      return {
        code: SnapCode.AccountRange,
        payload: encodeAccountRange({ requestId: decodeGetAccountRange(payload).requestId, accounts: [], proof: [] }),
      };
    case SnapCode.GetStorageRanges:
      return {
        code: SnapCode.StorageRanges,
        payload: encodeStorageRanges({ requestId: decodeGetStorageRanges(payload).requestId, slots: [], proof: [] }),
      };
    case SnapCode.GetByteCodes:
      return {
        code: SnapCode.ByteCodes,
        payload: encodeByteCodes({ requestId: decodeGetByteCodes(payload).requestId, codes: [] }),
      };
    case SnapCode.GetTrieNodes:
      return {
        code: SnapCode.TrieNodes,
        payload: encodeTrieNodes({ requestId: decodeGetTrieNodes(payload).requestId, nodes: [] }),
      };
    default:
      return undefined;
  }
}
