/** ECIP-1097 checkpointing: the 16th header field, federation signatures, checkpoint blocks, validation and chain weight. */
export { buildCheckpointBlock } from './block.js';
export { Federation } from './federation.js';
export {
  checkpointOf,
  decodeCheckpointField,
  decodeEcip1097Header,
  Ecip1097Header,
  hasCheckpointField,
  STANDARD_HEADER_FIELDS,
  type Checkpoint,
} from './header.js';
export {
  compareSignatures,
  recoverSigner,
  signatureFromBytes,
  signatureHex,
  signatureToBytes,
  signCheckpoint,
  sortSignatures,
  type CheckpointSignature,
} from './signature.js';
export {
  checkpointBlockFieldFault,
  checkpointFieldFault,
  checkpointHeaderFault,
  checkpointSignatureFault,
  type CheckpointFault,
  type CheckpointFaultCode,
} from './validation.js';
export { heavier, type ChainWeight } from './weight.js';
