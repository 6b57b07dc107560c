/**
 * Header copies that stand for the library's header only once one agreed with it: per header class (the library's,
 * ECIP-1097's), the first copy is compared with the library's header from the same data (own fields, encoding,
 * hash, header-run.ts `sameHeader`); copies are used after that agreed and never after one did not. Shared by the
 * assembly's execution headers (execution-header.ts) and sealed headers (sealed-header.ts).
 */
import type { BlockHeader } from '@ethereumjs/block';
import { copierOf, sameHeader } from './header-run.js';

export type Writable = Record<string, unknown>;

interface ClassState {
  readonly copier: (template: BlockHeader) => Writable;
  /** undefined until the first copy was compared with the library's header. */
  proven: boolean | undefined;
}

export class ProvenCopies {
  private readonly classes = new Map<object, ClassState>();

  /**
   * A copy of `template` with `edit` applied to it (given `fields`), or `library()` while its class is unproven
   * (then also the proof) or was refused. `edit` is a fixed function, so a call allocates no closure for it.
   */
  copy<F>(
    template: BlockHeader,
    fields: F,
    edit: (copy: Writable, fields: F) => void,
    library: () => BlockHeader,
  ): BlockHeader {
    const proto = Object.getPrototypeOf(template) as object;
    let state = this.classes.get(proto);
    if (state === undefined) this.classes.set(proto, (state = { copier: copierOf(template), proven: undefined }));
    if (state.proven === false) return library();
    const copy = state.copier(template);
    edit(copy, fields);
    copy.cache = { hash: undefined };
    if (Object.isFrozen(template)) Object.freeze(copy);
    const header = copy as unknown as BlockHeader;
    if (state.proven === true) return header;
    const reference = library();
    state.proven = sameHeader(header, reference, header.serialize());
    return state.proven ? header : reference;
  }
}
