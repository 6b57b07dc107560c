import { Interface } from 'ethers';
import { describe, expect, it } from 'vitest';
import { consoleSelectorCount, decodeConsoleCall } from './console-abi.js';

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'));
/** Calldata ethers encodes for `signature` (encoded independently of the decoder under test). */
const encode = (signature: string, args: unknown[]) =>
  bytes(new Interface([`function ${signature}`]).encodeFunctionData(signature.slice(0, signature.indexOf('(')), args));
const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('console.sol calldata', () => {
  it('knows every signature of console.sol: log(), 38 of one argument, 4² + 4³ + 4⁴ of uint256/string/bool/address, and the legacy uint spellings', () => {
    const current = 1 + 38 + 16 + 64 + 256;
    // Every list with a uint256 (or the int256 single) also decodes under its `uint`/`int` spelling.
    const legacy = 2 + (16 - 9) + (64 - 27) + (256 - 81);
    expect(consoleSelectorCount()).toBe(current + legacy);
  });

  it.each([
    ['log()', [], ''],
    ['log(string)', ['hello'], 'hello'],
    ['log(uint256)', [42], '42'],
    ['log(int256)', [-5], '-5'],
    ['log(bool)', [false], 'false'],
    ['log(address)', [address.toLowerCase()], address],
    ['log(bytes)', ['0xc0ffee'], '0xc0ffee'],
    ['log(bytes4)', ['0xdeadbeef'], '0xdeadbeef'],
    ['log(bytes32)', [`0x${'ab'.repeat(32)}`], `0x${'ab'.repeat(32)}`],
    ['log(uint)', [7], '7'],
    ['log(uint256,bool)', [1, true], '1 true'],
    ['log(string,uint256)', ['count:', 3], 'count: 3'],
    ['log(string,uint256,uint256)', ['%d of %s', 2, 9], '2 of 9'],
    ['log(string,address,uint256,bool)', ['%s sent %d, ok: %s', address, 7, true], `${address} sent 7, ok: true`],
    ['log(string,uint256)', ['100%% of %i', 3], '100% of 3'],
    ['log(string,uint256)', ['hex %x', 255], 'hex 0xff'],
    ['log(string,string)', ['quoted %o', 'a'], "quoted 'a'"],
    ['log(string,bool)', ['%d', true], '1'],
    ['log(string,string)', ['%s %s', 'one'], 'one %s'],
    ['log(string,uint256,string)', ['only %s', 1, 'extra'], 'only 1 extra'],
    ['log(address,string,bool,uint256)', [address, 'x', true, 0], `${address} x true 0`],
  ])('%s prints %j', (signature, args, line) => {
    expect(decodeConsoleCall(encode(signature, args))).toBe(line);
  });

  it('decodes nothing for calldata no console.sol signature makes', () => {
    expect(decodeConsoleCall(encode('transfer(address,uint256)', [address, 1n]))).toBeUndefined();
    expect(decodeConsoleCall(encode('log(string)', ['hi']).subarray(0, 40))).toBeUndefined();
    expect(decodeConsoleCall(new Uint8Array(3))).toBeUndefined();
  });
});
