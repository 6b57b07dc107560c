import { createBlockHeader } from '@ethereumjs/block';
import { bytesToHex, utf8ToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { etcEngineRules } from '../engine/engine-adapters.js';
import { getNetwork } from '../networks/index.js';
import { evmRulesAt } from './evmRules.js';

const etc = getNetwork('etc');
const rules = etcEngineRules(etc);
const ETC_1920000 = '0x94365e3a8c0b35089c1d1195081fe7489b528a84b22199c916180db8b28ade7f';

function header(number: bigint, extraData: Uint8Array, parentHash = new Uint8Array(32)) {
  return createBlockHeader(
    { number, parentHash, extraData, difficulty: 62_413_376_722_602n, gasLimit: 4_712_388n, timestamp: 1_469_020_840n },
    { common: evmRulesAt(etc, number) },
  );
}

describe('etc refuses ETH history at the DAO fork (history-pins.ts through the engine rules)', () => {
  const parent = header(1_919_999n, new Uint8Array(0));

  it('refuses a header at 1,920,000 with ETH\'s "dao-hard-fork" extraData, saying why', async () => {
    const verdict = await rules.validateHeader(parent, header(1_920_000n, utf8ToBytes('dao-hard-fork')));
    expect(verdict).toMatch(/dao-hard-fork.*DAO fork, which etc did not take/);
  });

  it('refuses the DAO extraData anywhere in the ten-block window, and not after it', async () => {
    const inWindow = await rules.validateHeader(parent, header(1_920_009n, utf8ToBytes('dao-hard-fork')));
    expect(inWindow).toMatch(/DAO fork/);
    const after = await rules.validateHeader(parent, header(1_920_010n, utf8ToBytes('dao-hard-fork')));
    expect(String(after)).not.toMatch(/DAO fork/);
  });

  it('refuses a block 1,920,000 whose hash is not the pinned ETC one, naming both hashes', async () => {
    const impostor = header(1_920_000n, utf8ToBytes('not the dao'));
    const verdict = await rules.validateHeader(parent, impostor);
    expect(verdict).toBe(`block 1920000 of etc must be ${ETC_1920000}, this one is ${bytesToHex(impostor.hash())}`);
  });

  it('leaves other blocks to the consensus rules (no pin verdict)', async () => {
    const verdict = await rules.validateHeader(parent, header(1_919_998n, utf8ToBytes('dao-hard-fork')));
    expect(String(verdict)).not.toMatch(/DAO fork|must be 0x/);
  });
});
