/**
 * evm_setTime/anvil_setTime, anvil_getGenesisTime, anvil_removePoolTransactions and the aliases hardhat_addBalance
 * and hardhat_setLoggingEnabled: the same calls go to svc-node and to Anvil 1.7.1 (@foundry-rs/anvil), and what
 * they answer and leave behind is compared. The two chains start at different times, so times are compared as
 * the distance from each chain's own.
 */
import { describe, expect, it } from 'vitest';
import { besideAnvil, haveAnvil } from '../helpers/beside-anvil.js';
import { call, post, request } from '../helpers/rpc.js';

const A0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const A1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const A2 = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

const both = besideAnvil();

/** The result, or the error's code. */
async function ask(url: string, method: string, params: unknown[]): Promise<unknown> {
  const { body } = await post(url, request(method, params));
  return body.error === undefined ? body.result : { error: body.error.code };
}

const timestampOf = async (url: string, tag: string) =>
  BigInt((await call<{ timestamp: string }>(url, 'eth_getBlockByNumber', [tag, false])).timestamp);

async function clockScript(url: string) {
  const genesis = await ask(url, 'anvil_getGenesisTime', []);
  const genesisHeader = await timestampOf(url, '0x0');
  const head = await timestampOf(url, 'latest');
  const target = head + 100_000n;
  const forward = await ask(url, 'evm_setTime', [Number(target)]);
  await call(url, 'evm_mine', []);
  const mined = (await timestampOf(url, 'latest')) - target;
  const further = await ask(url, 'anvil_setTime', [`0x${(target + 500n).toString(16)}`]);
  const back = await ask(url, 'evm_setTime', [Number(head)]);
  const refused = await ask(url, 'evm_setTime', ['not a time']);
  return {
    genesisIsBlock0: genesis === Number(genesisHeader),
    forwardIsNumber: typeof forward,
    // A second may tick between the calls.
    minedNearTarget: mined >= 0n && mined < 30n,
    further: typeof further === 'number' && further >= 490 && further <= 500,
    back,
    refused,
  };
}

async function poolScript(url: string) {
  await call(url, 'evm_setAutomine', [false]);
  for (const [from, value] of [
    [A0, '0x1'],
    [A0, '0x2'],
    [A1, '0x3'],
  ])
    await call(url, 'eth_sendTransaction', [{ from, to: A2, value, gasPrice: '0x2540be400' }]);
  const before = await ask(url, 'txpool_status', []);
  const removed = await ask(url, 'anvil_removePoolTransactions', [A0]);
  const after = await ask(url, 'txpool_status', []);
  const none = await ask(url, 'anvil_removePoolTransactions', [A2]);
  await call(url, 'evm_setAutomine', [true]);
  await call(url, 'evm_mine', []);
  return { before, removed, after, none };
}

async function aliasScript(url: string) {
  const balance = async () => BigInt(await call<string>(url, 'eth_getBalance', [A2, 'latest']));
  const start = await balance();
  const added = await ask(url, 'hardhat_addBalance', [A2, '0x3e8']);
  const delta = (await balance()) - start;
  const quiet = await ask(url, 'hardhat_setLoggingEnabled', [false]);
  const loud = await ask(url, 'hardhat_setLoggingEnabled', [true]);
  return { added, delta, quiet, loud };
}

describe('the block clock: evm_setTime, anvil_setTime, anvil_getGenesisTime', () => {
  it('sets the time the next block takes and names the genesis time', async () => {
    expect(await clockScript(both.node.url)).toEqual({
      genesisIsBlock0: true,
      forwardIsNumber: 'number',
      minedNearTarget: true,
      further: true,
      back: 0,
      refused: { error: -32602 },
    });
  });

  it.runIf(haveAnvil)('answers as Anvil does', async () => {
    expect(await clockScript(both.node.url)).toEqual(await clockScript(both.anvil!.url));
  });
});

describe('anvil_removePoolTransactions', () => {
  it("takes one sender's transactions out of the pool and leaves the others", async () => {
    expect(await poolScript(both.node.url)).toEqual({
      before: { pending: '0x3', queued: '0x0' },
      removed: null,
      after: { pending: '0x1', queued: '0x0' },
      none: null,
    });
  });

  it.runIf(haveAnvil)('answers as Anvil does', async () => {
    expect(await poolScript(both.node.url)).toEqual(await poolScript(both.anvil!.url));
  });
});

describe('hardhat_addBalance and hardhat_setLoggingEnabled', () => {
  it('answer as their anvil_ names do', async () => {
    expect(await aliasScript(both.node.url)).toEqual({ added: null, delta: 1000n, quiet: null, loud: null });
    // Hardhat's setNextBlockBaseFeePerGas helper calls the hardhat_ name. Not compared with Anvil: the Anvil here
    // runs a fee-market hardfork, where the method sets a base fee; without EIP-1559 both names refuse alike.
    const refusals = await Promise.all(
      ['anvil_setNextBlockBaseFeePerGas', 'hardhat_setNextBlockBaseFeePerGas'].map((m) =>
        ask(both.node.url, m, ['0x3b9aca00']),
      ),
    );
    expect(refusals).toEqual([{ error: -32602 }, { error: -32602 }]);
  });

  it.runIf(haveAnvil)('answer as Anvil does', async () => {
    expect(await aliasScript(both.node.url)).toEqual(await aliasScript(both.anvil!.url));
  });
});
