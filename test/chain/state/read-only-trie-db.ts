/**
 * A trie database that only reads, through `get` (which may record what it was asked): for tests that walk stored
 * state past every cache and must see exactly what the database holds.
 */
import type { DB } from '@ethereumjs/util';

export function readOnlyTrieDb(get: (key: string) => Uint8Array | undefined): DB<string, Uint8Array> {
  return {
    get: async (key: string) => get(key),
    put: async () => undefined,
    del: async () => undefined,
    batch: async () => undefined,
    shallowCopy() {
      return this;
    },
    open: async () => undefined,
  };
}
