/** The committed WebAssembly (src/chain/pow/ethash-wasm-bytes.ts) is what `npm run build:wasm` makes of asm/ethash.ts. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileEthashWasm, WASM_OUTPUT } from '../../../scripts/build-wasm.js';

describe('npm run build:wasm', () => {
  it('rebuilds the committed module byte for byte from asm/ethash.ts (run it after editing the source)', async () => {
    const rebuilt = await compileEthashWasm();
    expect(rebuilt === readFileSync(WASM_OUTPUT, 'utf8'), 'src/chain/pow/ethash-wasm-bytes.ts is stale').toBe(true);
  }, 60_000);
});
