/**
 * Hardhat's network helpers (part of both toolboxes) on the sample project's Counter, against the external node:
 * every helper goes through a JSON-RPC method of Hardhat's (hardhat_*, evm_*).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { network } from 'hardhat';

describe('network helpers', async () => {
  const { viem, networkHelpers } = await network.create();
  const publicClient = await viem.getPublicClient();

  async function deployCounter() {
    const counter = await viem.deployContract('Counter');
    await counter.write.incBy([3n]);
    return { counter };
  }

  it('loadFixture reverts to the fixture (evm_snapshot, evm_revert)', async () => {
    const { counter } = await networkHelpers.loadFixture(deployCounter);
    await counter.write.inc();
    assert.equal(await counter.read.x(), 4n);
    const again = await networkHelpers.loadFixture(deployCounter);
    assert.equal(again.counter.address, counter.address);
    assert.equal(await again.counter.read.x(), 3n);
  });

  it('time and mine (evm_setNextBlockTimestamp, hardhat_mine)', async () => {
    const before = await networkHelpers.time.latest();
    await networkHelpers.time.increase(3600);
    assert.ok((await networkHelpers.time.latest()) >= before + 3600);
    const height = await publicClient.getBlockNumber();
    await networkHelpers.mine(5);
    assert.equal(await publicClient.getBlockNumber(), height + 5n);
    const target = (await networkHelpers.time.latest()) + 100;
    await networkHelpers.time.increaseTo(target);
    assert.equal(await networkHelpers.time.latest(), target);
    await networkHelpers.mineUpTo(height + 9n);
    assert.equal(await publicClient.getBlockNumber(), height + 9n);
  });

  it('account state and impersonation (hardhat_set*, hardhat_impersonateAccount)', async () => {
    // loadFixture reverts to its snapshot: first, so that it does not undo what follows.
    const { counter } = await networkHelpers.loadFixture(deployCounter);
    const account = '0x1000000000000000000000000000000000000abc';
    await networkHelpers.setBalance(account, 10n ** 18n);
    assert.equal(await publicClient.getBalance({ address: account }), 10n ** 18n);
    await networkHelpers.setCode(account, '0x60016000');
    assert.equal(await publicClient.getCode({ address: account }), '0x60016000');
    await networkHelpers.setNonce(account, 7);
    assert.equal(await publicClient.getTransactionCount({ address: account }), 7);
    await networkHelpers.setStorageAt(account, 1, 42);
    assert.equal(BigInt(await networkHelpers.getStorageAt(account, 1)), 42n);

    await networkHelpers.impersonateAccount(account);
    const hash = await counter.write.inc({ account });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.from, account);
    await networkHelpers.stopImpersonatingAccount(account);
  });

  it('snapshots, coinbase and gas limit (hardhat_setCoinbase, evm_setBlockGasLimit)', async () => {
    const coinbase = '0x2000000000000000000000000000000000000def';
    await networkHelpers.setCoinbase(coinbase);
    await networkHelpers.setBlockGasLimit(25_000_000);
    const snapshot = await networkHelpers.takeSnapshot();
    await networkHelpers.mine();
    const block = await publicClient.getBlock();
    assert.equal(block.miner, coinbase);
    assert.equal(block.gasLimit, 25_000_000n);
    await snapshot.restore();
    assert.equal(await publicClient.getBlockNumber(), block.number - 1n);
  });
});
