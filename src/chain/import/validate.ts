/**
 * The checks a block passes before it is executed: its header against its parent (rules, ECIP-1097 field, seal),
 * its body (transactions root, uncles) and, for an ECIP-1097 checkpoint block, the checkpoint rules instead.
 */
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import {
  checkpointFieldFault,
  checkpointHeaderFault,
  checkpointOf,
  type Checkpoint,
  type Federation,
} from '../checkpointing/index.js';
import { transactionsRoot } from '../codec/receipts.js';
import type { BlockStore } from '../db/block-store.js';
import type { ChainRules, SealVerifier } from '../rules/engine-types.js';
import { BlockImportError, invalidBlock, type ImportFailure } from './import-error.js';
import { SealVerdicts } from './seal-verdicts.js';

const MAX_UNCLES = 2;
const UNCLE_GENERATIONS = 7;

export class BlockValidator {
  /** Seals checked ahead of import (preverifySeals), used once each. */
  private readonly verdicts = new SealVerdicts();

  constructor(
    private readonly store: BlockStore,
    private readonly rules: ChainRules,
    /** Undefined: seals are not checked (networks and test configurations without proof of work). */
    private readonly seal: SealVerifier | undefined,
    private readonly federation: Federation | undefined,
  ) {}

  async validateHeader(
    parent: BlockHeader,
    header: BlockHeader,
    what: 'block' | 'uncle',
    sealVerified = false,
  ): Promise<void> {
    await this.checkHeader(parent, header, what, sealVerified);
  }

  /**
   * `validateHeader` without a promise when nothing in it waits (rules that answer at once, a seal already checked):
   * a bulk run of empty blocks checks every header, and the awaits were a microtask turn and two promises a block.
   * Throws, or returns a promise that rejects, as `validateHeader` rejects.
   */
  checkHeader(
    parent: BlockHeader,
    header: BlockHeader,
    what: 'block' | 'uncle',
    sealVerified = false,
  ): void | Promise<void> {
    if (header.number !== parent.number + 1n) throw this.fault(header, what, 'number is not parent number + 1');
    // The ECIP-1097 field is present exactly from its activation block (an instanceof test without checkpointing).
    const form = checkpointFieldFault(header, this.federation);
    if (form !== undefined)
      throw new BlockImportError(
        'invalid-header',
        `${what} ${header.number} ${bytesToHex(header.hash())}: ${form.message}`,
        form,
      );
    const verdict = this.rules.validateHeader(parent, header);
    // Anything but an answer (undefined or a reason) is waited for: a thenable of another realm is not `instanceof Promise`.
    if (verdict === undefined || typeof verdict === 'string')
      return this.afterRules(verdict, header, what, sealVerified);
    return Promise.resolve(verdict).then((v) => this.afterRules(v, header, what, sealVerified));
  }

  private afterRules(
    verdict: void | string,
    header: BlockHeader,
    what: 'block' | 'uncle',
    sealVerified: boolean,
  ): void | Promise<void> {
    if (typeof verdict === 'string') throw this.fault(header, what, verdict);
    if (this.seal === undefined || sealVerified) return;
    const noted = this.verdicts.take(header);
    if (noted !== undefined) return this.sealVerdict(noted, header, what);
    return this.seal.verify(header).then((seal) => this.sealVerdict(seal, header, what));
  }

  private sealVerdict(seal: true | string, header: BlockHeader, what: 'block' | 'uncle'): void {
    if (seal !== true) throw this.fault(header, what, seal, 'invalid-seal');
  }

  private fault(
    header: BlockHeader,
    what: 'block' | 'uncle',
    reason: string,
    failure: ImportFailure = 'invalid-header',
  ): BlockImportError {
    return new BlockImportError(failure, `${what} ${header.number} ${bytesToHex(header.hash())}: ${reason}`);
  }

  /**
   * Checks the seals of these blocks' headers and uncles in one batch (in parallel where the verifier can), ahead of
   * their import; importing them then uses the verdicts instead of checking again. Without a batch-capable
   * verifier, or without seal checks, it does nothing and each seal is checked at import.
   */
  async preverifySeals(blocks: readonly Block[]): Promise<void> {
    const seal = this.seal;
    if (seal?.verifyMany === undefined) return;
    const headers = blocks.flatMap((b) => [b.header, ...b.uncleHeaders]);
    const results = await seal.verifyMany(headers);
    headers.forEach((h, i) => {
      this.verdicts.note(h, results[i]);
    });
  }

  /** Drops the verdicts `preverifySeals` left for blocks that will not be imported. */
  forgetSeals(blocks: readonly Block[]): void {
    for (const b of blocks) for (const h of [b.header, ...b.uncleHeaders]) this.verdicts.forget(h);
  }

  /** The seals of headers that are stored without import (a snap sync's header chain): one verdict each. */
  async checkSeals(headers: readonly BlockHeader[]): Promise<(true | string)[]> {
    const seal = this.seal;
    if (seal === undefined) return headers.map(() => true as const);
    if (seal.verifyMany !== undefined) return seal.verifyMany(headers);
    return Promise.all(headers.map((h) => seal.verify(h)));
  }

  /** ECIP-1097 §5.5: signatures over the parent hash, the fields §5.3 fixes, an empty body. */
  validateCheckpointBlock(parent: BlockHeader, block: Block, checkpoint: Checkpoint): void {
    const header = block.header;
    if (header.number !== parent.number + 1n)
      throw invalidBlock(block, 'invalid-header', 'number is not parent number + 1');
    const fault =
      checkpointHeaderFault(header, checkpoint, parent, this.federation) ??
      (block.transactions.length > 0 || block.uncleHeaders.length > 0
        ? {
            code: 'malformed-checkpoint-block' as const,
            message: 'the body is not empty (a checkpoint block has no transactions and no uncles)',
          }
        : undefined);
    if (fault !== undefined) {
      throw new BlockImportError(
        'invalid-checkpoint',
        `block ${header.number} ${bytesToHex(block.hash())}: invalid checkpoint: ${fault.message}`,
        fault,
      );
    }
  }

  async validateBody(block: Block, parent: BlockHeader, common: Common): Promise<void> {
    if (!equalsBytes(transactionsRoot(block.transactions, common), block.header.transactionsTrie))
      throw invalidBlock(block, 'invalid-body', 'transactions root mismatch');
    if (!block.uncleHashIsValid()) throw invalidBlock(block, 'invalid-body', 'uncle hash mismatch');
    const uncles = block.uncleHeaders;
    if (uncles.length === 0) return;
    if (uncles.length > MAX_UNCLES) throw invalidBlock(block, 'invalid-body', `more than ${MAX_UNCLES} uncles`);
    // Ancestors (up to 7 generations back) and every uncle they already included.
    const ancestors = new Map<string, BlockHeader>();
    const usedUncles = new Set<string>();
    let cursor: BlockHeader | undefined = parent;
    for (let i = 0; i < UNCLE_GENERATIONS && cursor !== undefined; i++) {
      ancestors.set(bytesToHex(cursor.hash()), cursor);
      const b = await this.store.getBlock(cursor.hash());
      for (const u of b?.uncleHeaders ?? []) usedUncles.add(bytesToHex(u.hash()));
      cursor = cursor.number === 0n ? undefined : await this.store.getHeader(cursor.parentHash);
    }
    for (const uncle of uncles) {
      const key = bytesToHex(uncle.hash());
      // A checkpoint block has no proof of work to reward; Mantis would take it as an uncle, this node does not.
      if (checkpointOf(uncle) !== undefined)
        throw invalidBlock(block, 'invalid-body', `uncle ${key} is an ECIP-1097 checkpoint block`);
      if (ancestors.has(key)) throw invalidBlock(block, 'invalid-body', `uncle ${key} is an ancestor`);
      if (usedUncles.has(key)) throw invalidBlock(block, 'invalid-body', `uncle ${key} is already included`);
      usedUncles.add(key);
      const uncleParent = ancestors.get(bytesToHex(uncle.parentHash));
      if (uncleParent === undefined || equalsBytes(uncle.parentHash, block.header.parentHash)) {
        throw invalidBlock(block, 'invalid-body', `uncle ${key} is not a sibling of a recent ancestor`);
      }
      await this.validateHeader(uncleParent, uncle, 'uncle');
    }
  }
}
