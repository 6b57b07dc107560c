/**
 * The ECIP-1097 header: the 15 standard fields plus a 16th, an optional checkpoint encoded as a 0- or 1-item
 * list: `[]` on a regular header after activation, `[[ [r, s, v], … ]]` on a checkpoint header.
 *
 * Why a subclass: `@ethereumjs/block`'s `BlockHeader` cannot carry a 16th field on a pre-London chain (it would
 * read it as baseFeePerGas and refuse it), yet everything else in the engine (storage, hashing, execution, the
 * wire) works on `BlockHeader`s. `Ecip1097Header` is a `BlockHeader` whose `raw()` appends the field, and
 * `hash()` and `serialize()` both go through `raw()`, so the block hash, the stored bytes, `Block.raw()` and what
 * peers receive all include it with no change to their callers. A side table keyed by hash could not work: the
 * hash itself covers the field. Headers without the field stay plain `BlockHeader`s, byte for byte as before.
 */
import {
  BlockHeader,
  valuesArrayToHeaderData,
  type BlockHeaderBytes,
  type BlockOptions,
  type HeaderData,
} from '@ethereumjs/block';
import { signatureFromItem, signatureToItem, type CheckpointSignature } from './signature.js';

export interface Checkpoint {
  /** In header order; a valid checkpoint has them sorted by (r, s, v). */
  readonly signatures: readonly CheckpointSignature[];
}

/** Fields of the standard (pre-London PoW) header; the checkpoint field is the one after them. */
export const STANDARD_HEADER_FIELDS = 15;

const ZERO32 = new Uint8Array(32);
const ZERO8 = new Uint8Array(8);
const isEmptyBytes = (value: unknown): boolean => value instanceof Uint8Array && value.length === 0;

export class Ecip1097Header extends BlockHeader {
  /** undefined = a regular header (field `[]`); otherwise the federation's signatures over the parent hash. */
  readonly checkpoint: Checkpoint | undefined;

  constructor(data: HeaderData, opts: BlockOptions, checkpoint: Checkpoint | undefined) {
    // A checkpoint header has empty mixHash and nonce, which BlockHeader's format check refuses (it wants 32 and
    // 8 bytes): build it with placeholders, then put the real empty values back before freezing. Regular headers
    // go through the check unchanged.
    const emptyMix = checkpoint !== undefined && isEmptyBytes(data.mixHash);
    const emptyNonce = checkpoint !== undefined && isEmptyBytes(data.nonce);
    super(
      { ...data, ...(emptyMix ? { mixHash: ZERO32 } : {}), ...(emptyNonce ? { nonce: ZERO8 } : {}) },
      { ...opts, freeze: false },
    );
    this.checkpoint = checkpoint;
    const writable = this as { mixHash: Uint8Array; nonce: Uint8Array };
    if (emptyMix) writable.mixHash = new Uint8Array(0);
    if (emptyNonce) writable.nonce = new Uint8Array(0);
    if (opts.freeze ?? true) Object.freeze(this);
  }

  /** The 15 standard fields, then the checkpoint field (a nested list, hence the cast of the library's type). */
  override raw(): BlockHeaderBytes {
    const field = this.checkpoint === undefined ? [] : [this.checkpoint.signatures.map(signatureToItem)];
    return [...super.raw(), field as unknown as Uint8Array];
  }
}

/** The header's checkpoint, if it is a checkpoint header. */
export function checkpointOf(header: BlockHeader): Checkpoint | undefined {
  return header instanceof Ecip1097Header ? header.checkpoint : undefined;
}

/** Does the header carry the 16th field (with or without a checkpoint)? */
export function hasCheckpointField(header: BlockHeader): boolean {
  return header instanceof Ecip1097Header;
}

/** Reads the 16th field: `[]` → no checkpoint, `[[sig, …]]` → a checkpoint; anything else throws. */
export function decodeCheckpointField(field: unknown): Checkpoint | undefined {
  if (!Array.isArray(field))
    throw new Error('the 16th header field must be the ECIP-1097 checkpoint list, got a byte string');
  if (field.length === 0) return undefined;
  if (field.length !== 1 || !Array.isArray(field[0]))
    throw new Error('the ECIP-1097 checkpoint field must be [] or [[signatures]]');
  const items = field[0] as unknown[];
  return { signatures: items.map((item, i) => signatureFromItem(item, `checkpoint signature ${i}`)) };
}

/** A header from its 16 RLP field values (the last one the checkpoint field). */
export function decodeEcip1097Header(values: readonly unknown[], opts: BlockOptions): Ecip1097Header {
  if (values.length !== STANDARD_HEADER_FIELDS + 1)
    throw new Error(`an ECIP-1097 header has ${STANDARD_HEADER_FIELDS + 1} fields, got ${values.length}`);
  const checkpoint = decodeCheckpointField(values[STANDARD_HEADER_FIELDS]);
  const standard = values.slice(0, STANDARD_HEADER_FIELDS) as BlockHeaderBytes;
  if (!standard.every((v) => v instanceof Uint8Array)) throw new Error('header fields 0-14 must be byte strings');
  return new Ecip1097Header(valuesArrayToHeaderData(standard), opts, checkpoint);
}
