import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, SECP256K1_ORDER } from '@ethereumjs/util';
import { beforeEach, describe, expect, it } from 'vitest';
import { etc } from '../../../src/chain/networks/index.js';
import { txRulesAt } from '../../../src/chain/rules/index.js';
import {
  TxPool,
  TxRejectedError,
  type TxPoolOptions,
  type TxRejectionReason,
} from '../../../src/chain/txpool/index.js';
import { ETHER, FakeChain, GWEI, RECIPIENT, Signer } from './fake-chain.js';

const alice = Signer.fromSeed('alice');
const bob = Signer.fromSeed('bob');

async function rejection(promise: Promise<unknown>): Promise<TxRejectedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TxRejectedError);
    return error as TxRejectedError;
  }
  throw new Error('expected the pool to reject the transaction');
}

async function expectRejected(
  promise: Promise<unknown>,
  reason: TxRejectionReason,
  message: RegExp,
): Promise<TxRejectedError> {
  const error = await rejection(promise);
  expect(error.reason).toBe(reason);
  expect(error.message).toMatch(message);
  return error;
}

describe('TxPool rejections', () => {
  let chain: FakeChain;
  let pool: TxPool;
  const makePool = (options: TxPoolOptions = {}) => new TxPool(chain, options);

  beforeEach(() => {
    chain = new FakeChain();
    chain.set(alice.address, { nonce: 0n, balance: 10n * ETHER });
    chain.set(bob.address, { nonce: 0n, balance: 10n * ETHER });
    pool = makePool();
  });

  it('accepts a valid transfer as pending and reports its hash', async () => {
    const tx = alice.transfer(0n);
    const result = await pool.add(tx.serialize());
    expect(result.hash).toEqual(tx.hash());
    expect(result.status).toBe('pending');
    expect(pool.get(tx.hash())?.senderHex).toBe(alice.address.toString());
    expect(pool.size).toBe(1);
  });

  it('rejects bytes that are not a transaction', async () => {
    await expectRejected(pool.add(new Uint8Array()), 'undecodable', /could not decode transaction: empty input/);
    await expectRejected(pool.add(Uint8Array.from([0x83, 1, 2, 3])), 'undecodable', /not an RLP string/);
    await expectRejected(
      pool.add(RLP.encode([Uint8Array.from([1]), Uint8Array.from([2])])),
      'undecodable',
      /RLP list of 9 byte strings/,
    );
    const nested = alice.transfer(0n).raw() as Array<Uint8Array | Uint8Array[]>;
    nested[6] = [Uint8Array.from([37])];
    await expectRejected(pool.add(RLP.encode(nested)), 'undecodable', /RLP list of 9 byte strings/);
    const valid = alice.transfer(0n).serialize();
    await expectRejected(pool.add(valid.subarray(0, valid.length - 3)), 'undecodable', /not valid RLP/);
    await expectRejected(pool.add(Uint8Array.from([0x01, 0xc1, 0x80])), 'undecodable', /RLP list of 11 fields/);
  });

  it('rejects signatures that recover no sender or break EIP-2', async () => {
    const values = alice.transfer(0n).raw();
    const zeroR = [...values.slice(0, 7), new Uint8Array(), values[8]];
    await expectRejected(pool.add(RLP.encode(zeroR)), 'invalid-signature', /invalid signature/);
    const s = BigInt(`0x${Buffer.from(values[8]).toString('hex')}`);
    const highS = [...values.slice(0, 8), bigIntToUnpaddedBytes(SECP256K1_ORDER - s)];
    await expectRejected(pool.add(RLP.encode(highS)), 'invalid-signature', /s-value above secp256k1n\/2/);
    const unsigned = [...values.slice(0, 6), new Uint8Array(), new Uint8Array(), new Uint8Array()];
    await expectRejected(pool.add(RLP.encode(unsigned)), 'invalid-signature', /not signed/);
  });

  it('rejects transaction types Ethereum Classic does not have', async () => {
    const eip1559 = Uint8Array.from([0x02, ...RLP.encode([new Uint8Array()])]);
    await expectRejected(pool.add(eip1559), 'unsupported-type', /EIP-1559 \(type 2.*not active.*type 0.*--legacy/);
    await expectRejected(pool.add(Uint8Array.from([0x03, 0xc0])), 'unsupported-type', /EIP-4844/);
  });

  it('rejects EIP-2930 transactions before Magneto but accepts them after', async () => {
    const tx = alice.accessListTransfer(0n);
    await expect(pool.add(tx.serialize())).resolves.toMatchObject({ status: 'pending' });

    const preMagneto = txRulesAt(etc, 13_000_000n);
    const etcChain = new FakeChain(61n, preMagneto);
    etcChain.set(alice.address, { nonce: 0n, balance: ETHER });
    const etcTx = alice.accessListTransfer(0n, { common: txRulesAt(etc, 20_000_000n) });
    await expectRejected(
      new TxPool(etcChain).add(etcTx.serialize()),
      'unsupported-type',
      /valid from the Magneto upgrade/,
    );
  });

  it('rejects a chain id of another network, naming both', async () => {
    const etcCommon = txRulesAt(etc, 20_000_000n);
    const legacy = alice.transfer(0n, { common: etcCommon });
    const error = await expectRejected(
      pool.add(legacy.serialize()),
      'chain-id-mismatch',
      /signed for chain id 61, this network is chain id 1337/,
    );
    expect(error.details).toEqual({ chainId: 61n, expectedChainId: 1337n });
    const typed = alice.accessListTransfer(0n, { common: etcCommon });
    await expectRejected(
      pool.add(typed.serialize()),
      'chain-id-mismatch',
      /chain id 61, this network is chain id 1337/,
    );
  });

  it('refuses pre-EIP-155 transactions unless configured to accept them', async () => {
    // Signed under Frontier rules, so v is 27/28 and no chain id is committed to.
    const unprotected = alice.transfer(0n, { common: txRulesAt(etc, 1n) });
    expect(unprotected.v === 27n || unprotected.v === 28n).toBe(true);
    await expectRejected(
      pool.add(unprotected.serialize()),
      'unprotected',
      /only replay-protected \(EIP-155\) transactions allowed/,
    );
    const lenient = makePool({ allowUnprotected: true });
    await expect(lenient.add(unprotected.serialize())).resolves.toMatchObject({ hash: unprotected.hash() });
  });

  it('refuses replay-protected transactions before the network activated EIP-155', async () => {
    const frontierChain = new FakeChain(61n, txRulesAt(etc, 1n));
    frontierChain.set(alice.address, { nonce: 0n, balance: ETHER });
    const protectedTx = alice.transfer(0n, { common: txRulesAt(etc, 20_000_000n) });
    await expectRejected(
      new TxPool(frontierChain).add(protectedTx.serialize()),
      'replay-protection-inactive',
      /Die Hard/,
    );
  });

  it('rejects a nonce below the account nonce and gives the expected one', async () => {
    chain.set(alice.address, { nonce: 5n, balance: ETHER });
    const error = await expectRejected(
      pool.add(alice.transfer(3n).serialize()),
      'nonce-too-low',
      new RegExp(`nonce too low: the next nonce of ${alice.address.toString()} is 5, the transaction has nonce 3`),
    );
    expect(error.details).toEqual({ expectedNonce: 5n, nonce: 3n });
  });

  it('rejects a transaction costing more than the balance, with need and have', async () => {
    chain.set(alice.address, { nonce: 0n, balance: 21_000n * GWEI });
    const error = await expectRejected(
      pool.add(alice.transfer(0n, { value: 1n }).serialize()),
      'insufficient-funds',
      /insufficient funds for gas \* price \+ value: .* has 21000000000000 wei, the transaction needs up to 21000000000001 wei/,
    );
    expect(error.details).toEqual({ need: 21_000n * GWEI + 1n, have: 21_000n * GWEI });
  });

  it('rejects a gas limit below the intrinsic gas and gives the minimum', async () => {
    await expectRejected(
      pool.add(alice.transfer(0n, { gasLimit: 20_000n }).serialize()),
      'intrinsic-gas-too-low',
      /needs at least 21000 gas before execution, its gas limit is 20000/,
    );
    // Calldata counts: 4 nonzero bytes (16 each) + 1 zero byte (4).
    const withData = alice.transfer(0n, { gasLimit: 21_067n, data: Uint8Array.from([1, 2, 3, 4, 0]) });
    await expectRejected(pool.add(withData.serialize()), 'intrinsic-gas-too-low', /at least 21068 gas/);
  });

  it('rejects a gas limit above the block gas limit', async () => {
    chain.gasLimit = 100_000n;
    await expectRejected(
      pool.add(alice.transfer(0n, { gasLimit: 100_001n }).serialize()),
      'gas-limit-exceeds-block-limit',
      /gas limit 100001 is above the block gas limit of 100000/,
    );
  });

  it('rejects a gas price below the configured minimum', async () => {
    pool = makePool({ minGasPrice: 2n * GWEI });
    await expectRejected(
      pool.add(alice.transfer(0n, { gasPrice: GWEI }).serialize()),
      'gas-price-too-low',
      /gas price 1000000000 wei is below this node's minimum of 2000000000 wei/,
    );
  });

  it('rejects a transaction it already holds', async () => {
    const tx = alice.transfer(0n);
    await pool.add(tx.serialize());
    await expectRejected(pool.add(tx.serialize()), 'already-known', /already known/);
    // Two concurrent adds of the same bytes: exactly one wins.
    const other = bob.transfer(0n);
    const results = await Promise.allSettled([pool.add(other.serialize()), pool.add(other.serialize())]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('rejects oversized transactions', async () => {
    pool = makePool({ maxTxBytes: 200 });
    const tx = alice.transfer(0n, { gasLimit: 100_000n, data: new Uint8Array(200).fill(1) });
    await expectRejected(pool.add(tx.serialize()), 'oversized', /limit is 200/);
  });

  it('needs a 10% higher gas price to replace a same-nonce transaction (configurable)', async () => {
    const original = alice.transfer(0n, { gasPrice: 100n * GWEI });
    await pool.add(original.serialize());
    await expectRejected(
      pool.add(alice.transfer(0n, { gasPrice: 109n * GWEI }).serialize()),
      'replacement-underpriced',
      /replacement transaction underpriced: .* nonce 0 at gas price 100000000000 wei; a replacement needs at least 110000000000 wei \(\+10%\)/,
    );
    const dropped: string[] = [];
    pool.on('tx:dropped', ({ tx, reason }) => dropped.push(`${tx.hashHex}:${reason}`));
    const replacement = alice.transfer(0n, { gasPrice: 110n * GWEI });
    const result = await pool.add(replacement.serialize());
    expect(result.replaced).toEqual(original.hash());
    expect(pool.has(original.hash())).toBe(false);
    expect(pool.get(replacement.hash())?.gasPrice).toBe(110n * GWEI);
    expect(pool.size).toBe(1);
    expect(dropped).toEqual([`0x${Buffer.from(original.hash()).toString('hex')}:replaced`]);

    const strict = makePool({ priceBumpPercent: 50 });
    await strict.add(alice.transfer(0n, { gasPrice: 100n * GWEI }).serialize());
    await expectRejected(
      strict.add(alice.transfer(0n, { gasPrice: 149n * GWEI }).serialize()),
      'replacement-underpriced',
      /\+50%/,
    );
  });

  it('a zero-priced transaction is replaced only by a positive price', async () => {
    await pool.add(alice.transfer(0n, { gasPrice: 0n }).serialize());
    await expectRejected(
      pool.add(alice.transfer(0n, { gasPrice: 0n, value: 2n }).serialize()),
      'replacement-underpriced',
      /at least 1 wei/,
    );
    await expect(pool.add(alice.transfer(0n, { gasPrice: 1n }).serialize())).resolves.toBeDefined();
  });

  it('limits transactions per sender', async () => {
    pool = makePool({ maxPerSender: 2 });
    await pool.add(alice.transfer(0n).serialize());
    await pool.add(alice.transfer(1n).serialize());
    await expectRejected(pool.add(alice.transfer(2n).serialize()), 'sender-limit', /it has 2, the limit is 2/);
    // A replacement is not a new slot.
    await expect(pool.add(alice.transfer(1n, { gasPrice: 2n * GWEI }).serialize())).resolves.toBeDefined();
  });

  it('when full, refuses a transaction that does not outbid the cheapest evictable one', async () => {
    pool = makePool({ maxSize: 2 });
    await pool.add(alice.transfer(0n, { gasPrice: 5n * GWEI }).serialize());
    await pool.add(bob.transfer(0n, { gasPrice: 3n * GWEI }).serialize());
    const carol = Signer.fromSeed('carol');
    chain.set(carol.address, { nonce: 0n, balance: ETHER });
    await expectRejected(
      pool.add(carol.transfer(0n, { gasPrice: 3n * GWEI }).serialize()),
      'pool-full',
      /txpool is full: it holds 2 transactions .* above 3000000000 wei, the cheapest evictable one, and this one pays 3000000000 wei/,
    );
  });

  it('accepts a transaction object as well as raw bytes', async () => {
    const tx = createLegacyTx(
      { nonce: 0n, gasPrice: GWEI, gasLimit: 21_000n, to: RECIPIENT, value: 1n },
      { common: txRulesAt(etc, 20_000_000n) },
    ).sign(alice.privateKey);
    // Built with a different Common (chain 61): the pool re-decodes with its own rules and refuses it.
    await expectRejected(pool.add(tx), 'chain-id-mismatch', /chain id 61/);
    await expect(pool.add(alice.transfer(0n))).resolves.toMatchObject({ status: 'pending' });
  });
});
