import { describe, expect, it } from 'vitest';
import { compileFixtures } from '../helpers/compile-fail.js';

/** One program for the three fixtures (compile-fail.ts); each is still checked as if alone. */
const typeErrors = compileFixtures('correct-usage.ts', 'wrong-param-type.ts', 'wrong-result-type.ts');

describe('the generated client is typed', () => {
  it('accepts correct calls, batches, request and the WebSocket transport with ws', () => {
    expect(typeErrors('correct-usage.ts')).toEqual([]);
  });

  it('rejects a param of the wrong type', () => {
    const errors = typeErrors('wrong-param-type.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('wrong-param-type.ts: TS2345');
    expect(errors[0]).toContain("Argument of type '42' is not assignable to parameter of type '`0x${string}`'");
  });

  it('rejects using a batch entry as the wrong type', () => {
    const errors = typeErrors('wrong-result-type.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('wrong-result-type.ts: TS2322');
    // tsc and tsgo print the union's members in another order.
    expect(errors[0]).toMatch(
      /Type '(`0x\$\{string\}` \| RpcClientError|RpcClientError \| `0x\$\{string\}`)' is not assignable to type 'number'/,
    );
  });
});
