/**
 * The eth/68 wire codec (ethereum/devp2p `caps/eth.md`): each message's RLP payload to and from plain values.
 * Snappy compression and message-code offsets belong to the RLPx transport, not here.
 *
 * Decoders check the whole shape of what a peer sent (list/byte nesting, integer sizes, hash lengths) and throw
 * `WireDecodeError` naming the message and the field; they throw nothing else, whatever the input, so the session
 * can turn any malformed message into a protocol-error disconnect.
 */
import { RLP, type Input } from '@ethereumjs/rlp';
import type { ForkId } from '../fork-id.js';
import { decodeMessage, decodeRlp, type Shape, uintBytes, type RlpItem } from '../wire-shape.js';

export { WireDecodeError } from '../wire-shape.js';

export const ETH_VERSION = 68;
/** Message codes eth/68 reserves (0x00–0x10), for the RLPx capability offsets. */
export const ETH_MESSAGE_COUNT = 17;

export const EthCode = {
  Status: 0x00,
  NewBlockHashes: 0x01,
  Transactions: 0x02,
  GetBlockHeaders: 0x03,
  BlockHeaders: 0x04,
  GetBlockBodies: 0x05,
  BlockBodies: 0x06,
  NewBlock: 0x07,
  NewPooledTransactionHashes: 0x08,
  GetPooledTransactions: 0x09,
  PooledTransactions: 0x0a,
  GetReceipts: 0x0f,
  Receipts: 0x10,
} as const;

// Serving limits, as geth (eth/protocols/eth/handler.go) applies them to the requests it answers.
/** Most headers one GetBlockHeaders is answered with (limits disk lookups). */
export const MAX_HEADERS_SERVE = 1024;
/** Most bodies one GetBlockBodies is answered with; in practice SOFT_RESPONSE_LIMIT binds first. */
export const MAX_BODIES_SERVE = 1024;
/** Most blocks' receipts one GetReceipts is answered with; in practice SOFT_RESPONSE_LIMIT binds first. */
export const MAX_RECEIPTS_SERVE = 1024;
/** Recommended soft limit of a GetPooledTransactions request (caps/eth.md: 256 hashes). */
export const MAX_POOLED_TXS_SERVE = 256;
/** Target size of one answer: stop adding items once it is reached (caps/eth.md recommends 2 MiB). */
export const SOFT_RESPONSE_LIMIT = 2 * 1024 * 1024;
/** Largest eth message accepted, after decompression (geth `maxMessageSize`). */
export const MAX_MESSAGE_SIZE = 10 * 1024 * 1024;

export interface Status {
  version: number;
  networkId: bigint;
  td: bigint;
  bestHash: Uint8Array;
  genesisHash: Uint8Array;
  forkId: ForkId;
}

export interface HeadersRequest {
  requestId: bigint;
  /** Block number or 32-byte block hash. */
  origin: bigint | Uint8Array;
  amount: number;
  skip: number;
  reverse: boolean;
}

/** A header as its RLP field list (what `BlockHeader.raw()` gives; an ECIP-1097 16th field is a nested list). */
export type RawHeader = Uint8Array[];
/** A typed transaction as its EIP-2718 bytes, a legacy one as its field list. */
export type RawTx = Uint8Array | Uint8Array[];
export interface RawBody {
  txs: RawTx[];
  uncles: RawHeader[];
}
export interface NewBlockMsg {
  block: [RawHeader, RawTx[], RawHeader[]];
  td: bigint;
}
/** eth/68 announcement: `types` is a byte string, one type byte per hash. */
export interface PooledTxAnnouncement {
  types: Uint8Array;
  sizes: number[];
  hashes: Uint8Array[];
}
/** Consensus encoding: a legacy receipt is its `[status/root, cumulativeGas, bloom, logs]` list, a typed one `type ++ rlp(list)` as bytes. */
export type RawReceipt = Uint8Array | unknown[];

export interface BlockHash {
  hash: Uint8Array;
  number: bigint;
}

// ------------------------------------------------------------------ shared item shapes

/** Fields of a pre-London PoW header (ETC's form); more are tolerated here and judged by header validation. */
const MIN_HEADER_FIELDS = 15;
const LEGACY_TX_FIELDS = 9;

/** Index of the ECIP-1097 checkpoint field, the one header field that is a list (on chains with checkpointing). */
const CHECKPOINT_FIELD = 15;

function readHeader(s: Shape, item: RlpItem, field: string): RawHeader {
  const fields = s.list(item, field);
  if (fields.length < MIN_HEADER_FIELDS)
    s.fail(field, `must have at least ${MIN_HEADER_FIELDS} fields, got ${fields.length}`);
  // Byte strings, except that a 16th field may be the checkpoint list ([] or [[ [r, s, v], … ]]): the engine's codec
  // reads it where checkpointing is configured and refuses it elsewhere.
  fields.forEach((f, i) => {
    if (!(i === CHECKPOINT_FIELD && fields.length === CHECKPOINT_FIELD + 1 && Array.isArray(f)))
      s.bytes(f, `${field}[${i}]`);
  });
  return fields as RawHeader;
}

function readTx(s: Shape, item: RlpItem, field: string): RawTx {
  if (Array.isArray(item)) {
    const fields = s.byteStrings(item, field);
    if (fields.length !== LEGACY_TX_FIELDS)
      s.fail(field, `must have ${LEGACY_TX_FIELDS} fields as a legacy transaction, got ${fields.length}`);
    return fields;
  }
  if (item.length === 0) s.fail(field, 'is an empty typed transaction');
  if (item[0]! > 0x7f) s.fail(field, `must start with an EIP-2718 type byte (≤ 0x7f), got 0x${item[0]!.toString(16)}`);
  return item;
}

function readTxs(s: Shape, item: RlpItem, field: string): RawTx[] {
  return s.listOf(item, field, (tx, f) => readTx(s, tx, f));
}

function readHeaders(s: Shape, item: RlpItem, field: string): RawHeader[] {
  return s.listOf(item, field, (h, f) => readHeader(s, h, f));
}

function readReceiptFields(s: Shape, item: RlpItem, field: string): unknown[] {
  const [status, cumulativeGas, bloom, logs] = s.list(item, field, 4) as [RlpItem, RlpItem, RlpItem, RlpItem];
  const st = s.bytes(status, `${field}[0] (status or post-state root)`);
  if (st.length !== 0 && st.length !== 32 && !(st.length === 1 && st[0] === 1)) {
    s.fail(`${field}[0] (status or post-state root)`, `must be empty, 0x01 or 32 bytes, got ${st.length} bytes`);
  }
  s.uint(cumulativeGas, `${field}[1] (cumulative gas)`);
  s.bytes(bloom, `${field}[2] (bloom)`, 256);
  s.listOf(logs, `${field}[3] (logs)`, (log, f) => {
    const [address, topics, data] = s.list(log, f, 3) as [RlpItem, RlpItem, RlpItem];
    s.bytes(address, `${f}[0] (address)`, 20);
    s.hashes(topics, `${f}[1] (topics)`);
    s.bytes(data, `${f}[2] (data)`);
  });
  return item as unknown[];
}

function readReceipt(s: Shape, item: RlpItem, field: string): RawReceipt {
  if (Array.isArray(item)) return readReceiptFields(s, item, field);
  if (item.length === 0 || item[0]! > 0x7f)
    s.fail(field, 'must be a legacy receipt list or a typed receipt (type byte ≤ 0x7f ++ RLP list)');
  let inner: RlpItem;
  try {
    inner = decodeRlp(item.subarray(1));
  } catch (err) {
    s.fail(field, `typed receipt body is invalid RLP (${(err as Error).message})`);
  }
  readReceiptFields(s, inner, `${field} (type ${item[0]} body)`);
  return item;
}

/** [request-id, payload]: the eth/66+ request/response envelope. */
function readEnvelope(s: Shape, root: RlpItem): [bigint, RlpItem] {
  const [id, payload] = s.list(root, 'message', 2) as [RlpItem, RlpItem];
  return [s.uint(id, 'request id'), payload];
}

const encode = (value: unknown): Uint8Array => RLP.encode(value as Input);

// ------------------------------------------------------------------ Status (0x00)

export function encodeStatus(status: Status): Uint8Array {
  return encode([
    uintBytes(status.version),
    uintBytes(status.networkId),
    uintBytes(status.td),
    status.bestHash,
    status.genesisHash,
    [status.forkId.hash, uintBytes(status.forkId.next)],
  ]);
}

export function decodeStatus(payload: Uint8Array): Status {
  return decodeMessage('Status', payload, (root, s) => {
    const [version, networkId, td, bestHash, genesisHash, forkId] = s.list(root, 'message', 6) as RlpItem[];
    const [forkHash, forkNext] = s.list(forkId!, 'forkId', 2) as [RlpItem, RlpItem];
    return {
      version: s.uint32(version!, 'version'),
      networkId: s.uint(networkId!, 'networkId'),
      td: s.uint(td!, 'td', 32),
      bestHash: s.hash(bestHash!, 'bestHash'),
      genesisHash: s.hash(genesisHash!, 'genesisHash'),
      forkId: { hash: s.bytes(forkHash, 'forkId.hash', 4), next: s.uint(forkNext, 'forkId.next') },
    };
  });
}

// ------------------------------------------------------------------ NewBlockHashes (0x01)

export function encodeNewBlockHashes(items: readonly BlockHash[]): Uint8Array {
  return encode(items.map((i) => [i.hash, uintBytes(i.number)]));
}

export function decodeNewBlockHashes(payload: Uint8Array): BlockHash[] {
  return decodeMessage('NewBlockHashes', payload, (root, s) =>
    s.listOf(root, 'announcements', (item, f) => {
      const [hash, number] = s.list(item, f, 2) as [RlpItem, RlpItem];
      return { hash: s.hash(hash, `${f}.hash`), number: s.uint(number, `${f}.number`) };
    }),
  );
}

// ------------------------------------------------------------------ Transactions (0x02)

export function encodeTransactions(txs: readonly RawTx[]): Uint8Array {
  return encode(txs);
}

export function decodeTransactions(payload: Uint8Array): RawTx[] {
  return decodeMessage('Transactions', payload, (root, s) => readTxs(s, root, 'txs'));
}

// ------------------------------------------------------------------ GetBlockHeaders (0x03) / BlockHeaders (0x04)

export function encodeGetBlockHeaders(req: HeadersRequest): Uint8Array {
  const origin = req.origin instanceof Uint8Array ? req.origin : uintBytes(req.origin);
  return encode([
    uintBytes(req.requestId),
    [origin, uintBytes(req.amount), uintBytes(req.skip), req.reverse ? Uint8Array.of(1) : new Uint8Array(0)],
  ]);
}

export function decodeGetBlockHeaders(payload: Uint8Array): HeadersRequest {
  return decodeMessage('GetBlockHeaders', payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    const [origin, amount, skip, reverse] = s.list(body, 'query', 4) as [RlpItem, RlpItem, RlpItem, RlpItem];
    const originBytes = s.bytes(origin, 'origin');
    // A hash is exactly 32 bytes; a number at most 8 (geth's HashOrNumber decoding).
    if (originBytes.length !== 32 && originBytes.length > 8)
      s.fail('origin', `must be a block number (≤ 8 bytes) or a 32-byte hash, got ${originBytes.length} bytes`);
    const rev = s.bytes(reverse, 'reverse');
    if (!(rev.length === 0 || (rev.length === 1 && rev[0] === 1))) s.fail('reverse', 'must be 0 or 1');
    return {
      requestId,
      origin: originBytes.length === 32 ? originBytes : s.uint(origin, 'origin'),
      amount: s.count(amount, 'amount'),
      skip: s.count(skip, 'skip'),
      reverse: rev.length === 1,
    };
  });
}

export function encodeBlockHeaders(requestId: bigint, headers: readonly RawHeader[]): Uint8Array {
  return encode([uintBytes(requestId), headers]);
}

export function decodeBlockHeaders(payload: Uint8Array): { requestId: bigint; headers: RawHeader[] } {
  return decodeMessage('BlockHeaders', payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    return { requestId, headers: readHeaders(s, body, 'headers') };
  });
}

// ------------------------------------------------------------------ hash-list requests: GetBlockBodies, GetPooledTransactions, GetReceipts

function encodeHashRequest(requestId: bigint, hashes: readonly Uint8Array[]): Uint8Array {
  return encode([uintBytes(requestId), hashes]);
}

function decodeHashRequest(message: string, payload: Uint8Array): { requestId: bigint; hashes: Uint8Array[] } {
  return decodeMessage(message, payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    return { requestId, hashes: s.hashes(body, 'hashes') };
  });
}

export const encodeGetBlockBodies = encodeHashRequest;
export const decodeGetBlockBodies = (payload: Uint8Array) => decodeHashRequest('GetBlockBodies', payload);
export const encodeGetPooledTransactions = encodeHashRequest;
export const decodeGetPooledTransactions = (payload: Uint8Array) => decodeHashRequest('GetPooledTransactions', payload);
export const encodeGetReceipts = encodeHashRequest;
export const decodeGetReceipts = (payload: Uint8Array) => decodeHashRequest('GetReceipts', payload);

// ------------------------------------------------------------------ BlockBodies (0x06)

export function encodeBlockBodies(requestId: bigint, bodies: readonly RawBody[]): Uint8Array {
  return encode([uintBytes(requestId), bodies.map((b) => [b.txs, b.uncles])]);
}

export function decodeBlockBodies(payload: Uint8Array): { requestId: bigint; bodies: RawBody[] } {
  return decodeMessage('BlockBodies', payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    const bodies = s.listOf(body, 'bodies', (item, f) => {
      // [transactions, ommers]; a third element (withdrawals) belongs to post-Shanghai Ethereum, not ETC.
      const [txs, uncles] = s.list(item, f, 2) as [RlpItem, RlpItem];
      return { txs: readTxs(s, txs, `${f}.txs`), uncles: readHeaders(s, uncles, `${f}.uncles`) };
    });
    return { requestId, bodies };
  });
}

// ------------------------------------------------------------------ NewBlock (0x07)

export function encodeNewBlock(msg: NewBlockMsg): Uint8Array {
  return encode([msg.block, uintBytes(msg.td)]);
}

export function decodeNewBlock(payload: Uint8Array): NewBlockMsg {
  return decodeMessage('NewBlock', payload, (root, s) => {
    const [block, td] = s.list(root, 'message', 2) as [RlpItem, RlpItem];
    const [header, txs, uncles] = s.list(block, 'block', 3) as [RlpItem, RlpItem, RlpItem];
    return {
      block: [
        readHeader(s, header, 'block.header'),
        readTxs(s, txs, 'block.txs'),
        readHeaders(s, uncles, 'block.uncles'),
      ],
      td: s.uint(td, 'td', 32),
    };
  });
}

// ------------------------------------------------------------------ NewPooledTransactionHashes (0x08)

export function encodeNewPooledTransactionHashes(a: PooledTxAnnouncement): Uint8Array {
  return encode([a.types, a.sizes.map((n) => uintBytes(n)), a.hashes]);
}

export function decodeNewPooledTransactionHashes(payload: Uint8Array): PooledTxAnnouncement {
  return decodeMessage('NewPooledTransactionHashes', payload, (root, s) => {
    const [types, sizes, hashes] = s.list(root, 'message', 3) as [RlpItem, RlpItem, RlpItem];
    const out = {
      types: s.bytes(types, 'types'),
      sizes: s.listOf(sizes, 'sizes', (n, f) => s.uint32(n, f)),
      hashes: s.hashes(hashes, 'hashes'),
    };
    if (out.types.length !== out.hashes.length || out.sizes.length !== out.hashes.length) {
      s.fail(
        'types/sizes/hashes',
        `must have equal lengths, got ${out.types.length}/${out.sizes.length}/${out.hashes.length}`,
      );
    }
    return out;
  });
}

// ------------------------------------------------------------------ PooledTransactions (0x0a)

export function encodePooledTransactions(requestId: bigint, txs: readonly RawTx[]): Uint8Array {
  return encode([uintBytes(requestId), txs]);
}

export function decodePooledTransactions(payload: Uint8Array): { requestId: bigint; txs: RawTx[] } {
  return decodeMessage('PooledTransactions', payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    return { requestId, txs: readTxs(s, body, 'txs') };
  });
}

// ------------------------------------------------------------------ Receipts (0x10)

export function encodeReceipts(requestId: bigint, receipts: readonly RawReceipt[][]): Uint8Array {
  return encode([uintBytes(requestId), receipts]);
}

export function decodeReceipts(payload: Uint8Array): { requestId: bigint; receipts: RawReceipt[][] } {
  return decodeMessage('Receipts', payload, (root, s) => {
    const [requestId, body] = readEnvelope(s, root);
    const receipts = s.listOf(body, 'receipts', (block, f) => s.listOf(block, f, (r, rf) => readReceipt(s, r, rf)));
    return { requestId, receipts };
  });
}
