/** The contract fixtures of the RPC tests (bytecode compiled once with solc, see test/fixtures/contracts/). */
import { readFileSync } from 'node:fs';
import type { InterfaceAbi } from 'ethers';

export interface CompiledContract {
  readonly abi: InterfaceAbi;
  readonly bytecode: string;
}

export const Counter = JSON.parse(
  readFileSync(new URL('../fixtures/contracts/Counter.json', import.meta.url), 'utf8'),
) as CompiledContract;

/** ethers hands out plain strings; the generated client wants `0x…` template types. */
export const asHex = (value: string): `0x${string}` => {
  if (!value.startsWith('0x')) throw new Error(`not 0x-prefixed: ${value}`);
  return value as `0x${string}`;
};

/** The fork tests' ERC-20 (test/fixtures/contracts/Token.sol): the whole supply to the deployer. */
export const Token = JSON.parse(
  readFileSync(new URL('../fixtures/contracts/Token.json', import.meta.url), 'utf8'),
) as CompiledContract;
