/**
 * A block's changes to the flat state (state/flat-table.ts), as the execution that made them knows them: each
 * changed account leaf and storage leaf with its value before and after, by hashed key. The miner's flat execution
 * state (exec/flat-state.ts) records them, so a head move onto its block stages the table's change from this list
 * instead of walking both tries for it. The table takes it only when it sits exactly at `fromRoot` and the move is
 * to `toRoot`; anything else (a reorg, a cleared storage, an unknown start) walks the tries as before.
 */

/** A leaf's value before and after (null: absent there); the key is a keccak hash (32 bytes). */
export interface FlatLeafChange {
  readonly hashedKey: Uint8Array;
  readonly before: Uint8Array | null;
  readonly after: Uint8Array | null;
}

export interface FlatAccountChange extends FlatLeafChange {
  /** The account's storage leaves that changed (keys: hashed slots). */
  readonly slots: readonly FlatLeafChange[];
}

export interface FlatChanges {
  readonly fromRoot: Uint8Array;
  readonly toRoot: Uint8Array;
  /** Every account whose leaf or storage may have changed between the two roots; unchanged entries are skipped. */
  readonly accounts: readonly FlatAccountChange[];
}
