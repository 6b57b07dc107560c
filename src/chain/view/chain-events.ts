/** What the chain announces (Blockchain is an `EventEmitter<ChainEvents>`); fork choice and bulk assembly emit them. */
import type { EventEmitter } from 'node:events';
import type { Block } from '@ethereumjs/block';

export interface ReorgEvent {
  /** Blocks that left the canonical chain, highest first. */
  readonly dropped: readonly Block[];
  /** Blocks that joined it, lowest first (the new head last). */
  readonly added: readonly Block[];
  readonly commonAncestor: Block;
}

export interface ChainEvents {
  /** The head changed (extension, reorg or rewind); `block` is the new head. */
  newHead: [block: Block];
  /** Canonical blocks were replaced or removed; fires before the matching `newHead`. */
  reorg: [event: ReorgEvent];
  /**
   * `importBlock` stored a new block (as the head or on a side chain), after its `newHead`/`reorg`. `durationMs`
   * covers the checks, execution and the write; operators' metrics and progress lines read it.
   */
  blockImported: [event: BlockImportedEvent];
  /**
   * A block this node sealed differed from @ethereumjs/vm's execution of it (exec/seal-checker.ts); the head went
   * back to the block before it (`rewoundTo`, unless it was no longer canonical) and block production is stopped.
   */
  sealCheckFailed: [event: SealCheckFailedEvent];
}

export interface SealCheckFailedEvent {
  readonly block: Block;
  readonly differences: readonly {
    readonly tx?: number;
    readonly field: string;
    readonly sealed: string;
    readonly reference: string;
  }[];
  /** The head after the rewind; undefined when the block had left the canonical chain already. */
  readonly rewoundTo: Block | undefined;
}

export interface BlockImportedEvent {
  readonly block: Block;
  readonly status: 'head' | 'side';
  readonly durationMs: number;
}

/** The part of the chain's emitter that the modules moving the head use. */
export type ChainEmitter = Pick<EventEmitter<ChainEvents>, 'emit' | 'listenerCount'>;
