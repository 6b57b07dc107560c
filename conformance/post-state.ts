/**
 * Checks a node's state at `latest` against a vector's expected accounts, through RPC: every listed account's
 * balance, nonce, code and storage slots, then (via the debug dumps, which read the state trie) that there is no
 * account and no non-zero slot the vector does not list.
 */
import { keccak256 } from '../src/chain/base/crypto.js';
import { quantity, sameBytes, sameQuantity, toQuantity, word } from './hex.js';
import type { RpcClient } from './rpc.js';
import { Difference, expectEqual, type Accounts } from './types.js';

const ZERO32 = `0x${'00'.repeat(32)}`;
const PAGE = 256;

/** keccak256 of an address or 32-byte slot: the key the state or storage trie files it under. */
const hashOf = (hex: string): string => `0x${Buffer.from(keccak256(Buffer.from(hex.slice(2), 'hex'))).toString('hex')}`;

/** `ignored`: lower-case addresses left out of the comparison, whatever the state or the vector holds for them. */
export async function checkPostState(
  rpc: RpcClient,
  blockNumber: bigint,
  post: Accounts,
  ignored: ReadonlySet<string> = new Set(),
): Promise<void> {
  const at = toQuantity(blockNumber);
  for (const [address, expected] of Object.entries(post)) {
    if (ignored.has(address.toLowerCase())) continue;
    const balance = await rpc.call<string>('eth_getBalance', [address, at]);
    expectEqual(`${address} balance`, quantity(balance), quantity(expected.balance));
    const nonce = await rpc.call<string>('eth_getTransactionCount', [address, at]);
    expectEqual(`${address} nonce`, quantity(nonce), quantity(expected.nonce));
    const code = await rpc.call<string>('eth_getCode', [address, at]);
    expectEqual(`${address} code`, code, expected.code, (a, b) =>
      sameBytes(a as string, (b as string) === '' ? '0x' : (b as string)),
    );
    for (const [slot, value] of Object.entries(expected.storage)) {
      // The slot as the vector spells it ("0x00", "0x03e8": leading zeros, as test tools send slots) and as 32
      // bytes: both must name the same slot.
      for (const spelling of new Set([slot, word(slot)])) {
        const actual = await rpc.call<string>('eth_getStorageAt', [address, spelling, at]);
        const what =
          spelling === slot ? `${address} storage ${slot}` : `${address} storage ${slot} (sent as ${spelling})`;
        expectEqual(what, actual, value, (a, b) => sameQuantity(a as string, b as string));
      }
    }
    await checkNoExtraSlots(rpc, at, address, expected.storage);
  }
  await checkNoExtraAccounts(rpc, blockNumber, post, ignored);
}

async function checkNoExtraAccounts(
  rpc: RpcClient,
  blockNumber: bigint,
  post: Accounts,
  ignored: ReadonlySet<string>,
): Promise<void> {
  const skip = new Set([...ignored].map(hashOf));
  const expected = new Set(
    Object.keys(post)
      .map((a) => hashOf(a.toLowerCase()))
      .filter((h) => !skip.has(h)),
  );
  let start = ZERO32;
  for (;;) {
    const page = await rpc.call<{ addressMap: Record<string, string | null>; nextKey: string }>('debug_accountRange', [
      blockNumber.toString(),
      0,
      start,
      PAGE,
    ]);
    for (const [hash, address] of Object.entries(page.addressMap)) {
      if (skip.has(hash.toLowerCase())) continue;
      if (!expected.has(hash.toLowerCase()))
        throw new Difference(`extra account ${address ?? `with address hash ${hash}`} in the state`);
      expected.delete(hash.toLowerCase());
    }
    if (quantity(page.nextKey) === 0n) break;
    start = page.nextKey;
  }
  if (expected.size > 0) {
    const missing = Object.keys(post).filter((a) => expected.has(hashOf(a.toLowerCase())));
    throw new Difference(`account ${missing[0]} missing from debug_accountRange`);
  }
}

async function checkNoExtraSlots(
  rpc: RpcClient,
  at: string,
  address: string,
  storage: Readonly<Record<string, string>>,
): Promise<void> {
  const expected = new Set(
    Object.entries(storage)
      .filter(([, v]) => quantity(v) !== 0n)
      .map(([k]) => hashOf(word(k))),
  );
  let begin = ZERO32;
  for (;;) {
    const page = await rpc.call<{
      complete: boolean;
      storage: Record<string, { key: string | null; value: string }>;
      nextKey: string | null;
    }>('debug_storageRangeAt', [at, 0, address, begin, PAGE]);
    for (const [hash, entry] of Object.entries(page.storage)) {
      if (!expected.has(hash.toLowerCase()))
        throw new Difference(
          `${address} has an extra storage slot ${entry.key ?? `with hash ${hash}`} = ${entry.value}`,
        );
      expected.delete(hash.toLowerCase());
    }
    if (page.complete || page.nextKey === null) break;
    begin = page.nextKey;
  }
  if (expected.size > 0) throw new Difference(`${address}: a listed storage slot is missing from debug_storageRangeAt`);
}
