/**
 * The older GeneralStateTests format has no `txbytes` in its post entries: the transaction is the test's
 * `transaction` template (arrays of data, gasLimit and value, picked by each result's `indexes`) signed with its
 * `secretKey`. Those tests predate EIP-155, so the signature is an unprotected legacy one (v = 27/28), as the
 * fillers made it; newer vectors' `txbytes` for legacy transactions are byte-for-byte the same.
 */
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { StateTestResult } from './types.js';

interface TransactionTemplate {
  readonly data: readonly string[];
  readonly gasLimit: readonly string[];
  readonly value: readonly string[];
  readonly gasPrice?: string;
  readonly nonce: string;
  readonly to: string;
  readonly secretKey?: string;
}

// Homestead: legacy rules without EIP-155, so the signature carries no chain id.
const unprotected = new Common({ chain: Mainnet, hardfork: Hardfork.Homestead });

/** The raw transaction of one post entry: its `txbytes`, or the template signed with `secretKey`. */
export function txbytesOf(template: unknown, result: Pick<StateTestResult, 'indexes'> & { txbytes?: string }): string {
  if (result.txbytes !== undefined) return result.txbytes;
  const t = template as TransactionTemplate;
  if (t.secretKey === undefined) throw new Error('post entry has no txbytes and the transaction no secretKey');
  if (t.gasPrice === undefined || 'accessLists' in t || 'maxFeePerGas' in t)
    throw new Error('only legacy transactions come without txbytes');
  const { data, gas, value } = result.indexes;
  const tx = createLegacyTx(
    {
      nonce: BigInt(t.nonce),
      gasPrice: BigInt(t.gasPrice),
      gasLimit: BigInt(t.gasLimit[gas]),
      to: t.to === '' ? undefined : (t.to as `0x${string}`),
      value: BigInt(t.value[value]),
      data: t.data[data] as `0x${string}`,
    },
    { common: unprotected },
  );
  return bytesToHex(tx.sign(hexToBytes(t.secretKey as `0x${string}`)).serialize());
}
