import { createBlockHeader } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createEVM } from '@ethereumjs/evm';
import { createFeeMarket1559Tx, createLegacyTx, createLegacyTxFromRLP } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { dev, etc, mordor } from '../../../src/chain/networks/index.js';
import {
  evmRuleSetAt,
  evmRulesAt,
  evmRulesFor,
  nextEvmRuleSetChange,
  txRulesAt,
} from '../../../src/chain/rules/index.js';

async function run(common: Common, code: string, gasLimit = 1_000_000n) {
  const evm = await createEVM({ common });
  return evm.runCode({ code: hexToBytes(code as `0x${string}`), gasLimit });
}

/** Deploy `initcode` through a CREATE message; returns the exception, if any. */
async function create(common: Common, initcode: Uint8Array) {
  const evm = await createEVM({ common });
  const result = await evm.runCall({ data: initcode, gasLimit: 20_000_000n, gasPrice: 0n });
  return result.execResult.exceptionError?.error;
}

/** Initcode returning `size` bytes of memory whose first byte is `firstByte`. */
function initcodeReturning(size: number, firstByte = 0): Uint8Array {
  const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
  // PUSH1 firstByte PUSH1 0 MSTORE8 PUSH2 size PUSH1 0 RETURN
  return hexToBytes(`0x60${hex(firstByte, 1)}600053${'61' + hex(size, 2)}6000f3`);
}

describe('ETC rule sets', () => {
  it('are picked per block from the fork schedule', () => {
    expect(evmRuleSetAt(etc.forks, 0n)).toBe('frontier');
    expect(evmRuleSetAt(etc.forks, 1_150_000n)).toBe('homestead');
    expect(evmRuleSetAt(etc.forks, 2_999_999n)).toBe('gasReprice');
    expect(evmRuleSetAt(etc.forks, 3_000_000n)).toBe('dieHard');
    expect(evmRuleSetAt(etc.forks, 8_771_999n)).toBe('dieHard');
    expect(evmRuleSetAt(etc.forks, 8_772_000n)).toBe('atlantis');
    expect(evmRuleSetAt(etc.forks, 19_250_000n)).toBe('spiral');
    expect(evmRuleSetAt(mordor.forks, 0n)).toBe('atlantis');
    expect(evmRuleSetAt(mordor.forks, 301_243n)).toBe('agharta');
    expect(evmRuleSetAt(dev.forks, 0n)).toBe('spiral');
    expect(nextEvmRuleSetChange(etc.forks, 3_000_000n)).toBe(8_772_000n);
    expect(nextEvmRuleSetChange(dev.forks, 0n)).toBeNull();
  });

  it('map onto Ethereum hardforks and are cached per rule set', () => {
    const names = (n: bigint) => evmRulesAt(etc, n).hardfork();
    expect(
      [
        0n,
        1_150_000n,
        2_500_000n,
        3_000_000n,
        8_772_000n,
        9_573_000n,
        10_500_839n,
        13_189_133n,
        14_525_000n,
        19_250_000n,
      ].map(names),
    ).toEqual([
      'chainstart',
      'homestead',
      'tangerineWhistle',
      'tangerineWhistle',
      'byzantium',
      'petersburg',
      'istanbul',
      'berlin',
      'london',
      'shanghai',
    ]);
    expect(evmRulesAt(etc, 9_000_000n)).toBe(evmRulesAt(etc, 9_100_000n));
    expect(evmRulesAt(mordor, 0n).chainId()).toBe(63n);
    expect(evmRulesAt(dev, 123n).chainId()).toBe(1337n);
    // setHardforkBy (runBlock with setHardfork: true) cannot move a cached instance.
    const spiral = evmRulesAt(dev, 0n);
    spiral.setHardforkBy({ blockNumber: 10_000_000n });
    expect(spiral.hardfork()).toBe('shanghai');
  });

  it('keep the ETC 5 ETC base reward where Byzantium/Constantinople would cut it', async () => {
    for (const block of [8_772_000n, 9_573_000n, 19_250_000n]) {
      const common = evmRulesAt(etc, block).copy();
      await createEVM({ common }); // registers the EVM parameter set
      const { paramsVM } = await import('@ethereumjs/vm');
      common.updateParams(paramsVM);
      expect(common.param('minerReward')).toBe(5n * 10n ** 18n);
    }
  });

  it('Die Hard: EIP-160 EXP price and EIP-155 transactions without EIP-161/170', async () => {
    const exp = '0x60ff60020a00'; // PUSH1 0xff PUSH1 2 EXP STOP: one exponent byte
    expect((await run(evmRulesAt(etc, 2_999_999n), exp)).executionGasUsed).toBe(3n + 3n + 10n + 10n);
    expect((await run(evmRulesAt(etc, 3_000_000n), exp)).executionGasUsed).toBe(3n + 3n + 10n + 50n);
    expect(evmRulesAt(etc, 3_000_000n).gteHardfork('spuriousDragon')).toBe(false);
    // EIP-170 arrives with Atlantis: 24,577 bytes of code deploy under Die Hard, not after.
    expect(await create(evmRulesAt(etc, 3_000_000n), initcodeReturning(24_577))).toBeUndefined();
    expect(await create(evmRulesAt(etc, 8_772_000n), initcodeReturning(24_577))).toBe(
      'code size to deposit exceeds maximum code size',
    );
    expect(await create(evmRulesAt(etc, 8_772_000n), initcodeReturning(24_576))).toBeUndefined();
    // EIP-155: a chain-id-61 signature is understood from Die Hard on.
    const key = hexToBytes('0x4646464646464646464646464646464646464646464646464646464646464646');
    const signed = createLegacyTx(
      {
        nonce: 9n,
        gasPrice: 20n * 10n ** 9n,
        gasLimit: 21000n,
        to: '0x3535353535353535353535353535353535353535',
        value: 10n ** 18n,
      },
      { common: txRulesAt(etc, 3_000_000n) },
    ).sign(key);
    expect(signed.v).toBe(61n * 2n + 35n + (signed.v! % 2n === 1n ? 0n : 1n));
    const decoded = createLegacyTxFromRLP(signed.serialize(), { common: txRulesAt(etc, 3_000_000n) });
    expect(decoded.getSenderAddress().toString()).toBe(signed.getSenderAddress().toString());
    expect(txRulesAt(etc, 2_999_999n)).toBe(evmRulesAt(etc, 2_999_999n));
    expect(txRulesAt(etc, 8_772_000n)).toBe(evmRulesAt(etc, 8_772_000n));
  });

  it('Atlantis/Agharta/Phoenix/Magneto bring Byzantium, Petersburg, Istanbul and Berlin EVM rules', async () => {
    const returndatasize = '0x3d00';
    expect((await run(evmRulesAt(etc, 8_771_999n), returndatasize)).exceptionError?.error).toBe('invalid opcode');
    expect((await run(evmRulesAt(etc, 8_772_000n), returndatasize)).exceptionError).toBeUndefined();
    const shl = '0x600160011b00';
    expect((await run(evmRulesAt(mordor, 301_242n), shl)).exceptionError?.error).toBe('invalid opcode');
    expect((await run(evmRulesAt(mordor, 301_243n), shl)).exceptionError).toBeUndefined();
    const chainId = await run(evmRulesAt(mordor, 999_983n), '0x4660005260206000f3');
    expect(BigInt('0x' + Buffer.from(chainId.returnValue).toString('hex'))).toBe(63n);
    const coldSload = '0x60005400'; // PUSH1 0 SLOAD STOP
    expect((await run(evmRulesAt(mordor, 3_985_892n), coldSload)).executionGasUsed).toBe(3n + 800n);
    expect((await run(evmRulesAt(mordor, 3_985_893n), coldSload)).executionGasUsed).toBe(3n + 2100n);
  });

  it('Mystique: EIP-3529 (no SELFDESTRUCT refund) and EIP-3541, but no EIP-1559', async () => {
    const selfdestruct = '0x33ff'; // CALLER SELFDESTRUCT
    expect((await run(evmRulesAt(mordor, 5_519_999n), selfdestruct)).gasRefund).toBe(24_000n);
    expect((await run(evmRulesAt(mordor, 5_520_000n), selfdestruct)).gasRefund ?? 0n).toBe(0n);
    expect(await create(evmRulesAt(mordor, 5_519_999n), initcodeReturning(1, 0xef))).toBeUndefined();
    expect(await create(evmRulesAt(mordor, 5_520_000n), initcodeReturning(1, 0xef))).toBe('invalid bytecode deployed');
    const basefee = '0x4800';
    for (const common of [evmRulesAt(mordor, 5_520_000n), evmRulesAt(dev, 0n)]) {
      expect(common.isActivatedEIP(1559)).toBe(false);
      expect((await run(common, basefee)).exceptionError?.error).toBe('invalid opcode');
    }
  });

  it('Spiral: PUSH0, warm coinbase and the initcode limit, without withdrawals', async () => {
    const push0 = '0x5f00';
    expect((await run(evmRulesAt(mordor, 9_956_999n), push0)).exceptionError?.error).toBe('invalid opcode');
    expect((await run(evmRulesAt(mordor, 9_957_000n), push0)).exceptionError).toBeUndefined();
    expect((await run(evmRulesFor(dev, 'spiral'), push0)).executionGasUsed).toBe(2n);
    const common = evmRulesAt(dev, 0n);
    expect(common.isActivatedEIP(3651)).toBe(true);
    expect(common.isActivatedEIP(3860)).toBe(true);
    expect(common.isActivatedEIP(4895)).toBe(false);
    expect(common.isActivatedEIP(4399)).toBe(false); // opcode 0x44 stays DIFFICULTY
    const tooLong = new Uint8Array(49_153);
    expect(await create(common, tooLong)).toBe('initcode exceeds max initcode size');
    // 15-field PoW headers: no baseFee, no withdrawalsRoot.
    const header = createBlockHeader({ number: 1n, difficulty: 2n, gasLimit: 30_000_000n }, { common });
    expect(header.raw()).toHaveLength(15);
  });

  it('Bastion: TSTORE/TLOAD, MCOPY, CLZ, BLS and P256 precompiles, SELFDESTRUCT per EIP-6780, still no EIP-1559', async () => {
    const bastionAt10 = { ...dev, forks: { ...dev.forks, bastion: 10n } };
    expect(evmRuleSetAt(bastionAt10.forks, 9n)).toBe('spiral');
    expect(evmRuleSetAt(bastionAt10.forks, 10n)).toBe('bastion');
    expect(nextEvmRuleSetChange(bastionAt10.forks, 0n)).toBe(10n);
    const before = evmRulesAt(bastionAt10, 9n);
    const after = evmRulesAt(bastionAt10, 10n);
    expect(after.hardfork()).toBe('shanghai');
    // PUSH1 1 PUSH1 0 TSTORE PUSH1 0 TLOAD | PUSH1 1 PUSH1 0 PUSH1 0 MCOPY | PUSH1 1 CLZ; STOP
    for (const code of ['0x600160005d60005c00', '0x6001600060005e00', '0x60011e00']) {
      expect((await run(before, code)).exceptionError?.error).toBe('invalid opcode');
      expect((await run(after, code)).exceptionError).toBeUndefined();
    }
    for (const eip of [1153, 5656, 6780, 2537, 7823, 7883, 7939, 7951]) {
      expect(before.isActivatedEIP(eip)).toBe(false);
      expect(after.isActivatedEIP(eip)).toBe(true);
    }
    for (const eip of [1559, 4844, 4788, 7702, 4895, 4399]) expect(after.isActivatedEIP(eip)).toBe(false);
    // Transactions: legacy and access-list only, as before.
    const tx = txRulesAt(bastionAt10, 10n);
    expect(tx.isActivatedEIP(2930)).toBe(true);
    expect(tx.isActivatedEIP(1559)).toBe(false);
    for (const eip of [4844, 7702]) expect(tx.isActivatedEIP(eip)).toBe(false);
    const feeMarket = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n, gasLimit: 21_000n };
    expect(() => createFeeMarket1559Tx(feeMarket, { common: tx })).toThrow(/EIP-1559 not enabled/);
    const header = createBlockHeader({ number: 10n, difficulty: 2n, gasLimit: 30_000_000n }, { common: after });
    expect(header.raw()).toHaveLength(15);
  });
});
