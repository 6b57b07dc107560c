import { describe, expect, it } from 'vitest';
import { compileFixtures } from '../../../test/helpers/compile-fail.js';

/** One program for the three fixtures (compile-fail.ts); each is still checked as if alone. */
const typeErrors = compileFixtures('setting-correct-usage.ts', 'setting-unknown-key.ts', 'setting-wrong-value-type.ts');

describe('settings are typed by key', () => {
  it('reads each setting as its table entry says', () => {
    expect(typeErrors('setting-correct-usage.ts')).toEqual([]);
  });

  it('does not compile a misspelt key', () => {
    const errors = typeErrors('setting-unknown-key.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('setting-unknown-key.ts: TS2345');
    expect(errors[0]).toContain(`Argument of type '"network.rpc.http.prot"' is not assignable to parameter of type`);
  });

  it('does not compile a value used as another type', () => {
    const errors = typeErrors('setting-wrong-value-type.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('setting-wrong-value-type.ts: TS2322');
    expect(errors[0]).toContain("Type 'number' is not assignable to type 'string'");
  });
});
