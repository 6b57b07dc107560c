import { describe, expect, it } from 'vitest';
import { etc } from '../networks/index.js';
import { evmRulesAt } from '../rules/evmRules.js';
import { sharedCommon } from './shared-common.js';

describe('sharedCommon', () => {
  it("answers gteHardfork as the library's walk of the hardfork list, for every set and asked hardfork, copies included", () => {
    for (const block of [1n, 3_000_000n, 9_000_000n, 20_000_000n]) {
      const common = sharedCommon(evmRulesAt(etc, block));
      const names = [...common.hardforks().map((hf) => hf.name), 'noSuchFork'];
      // Twice: the second round answers from the memo.
      for (let round = 0; round < 2; round++) {
        for (const set of names.slice(0, -1)) {
          const copy = common.copy();
          copy.setHardfork(set);
          for (const asked of names)
            expect(copy.gteHardfork(asked), `${block} ${set} >= ${asked}`).toBe(copy.hardforkGteHardfork(null, asked));
        }
        for (const asked of names) expect(common.gteHardfork(asked)).toBe(common.hardforkGteHardfork(null, asked));
      }
    }
  });
});
