/**
 * viem's test client (`mode: 'anvil'`) drives one script, unchanged, against svc-node's dev chain and against Anvil
 * itself (same mnemonic, chain id 1337): state edits, mining, time travel (a timestamp interval too), snapshots,
 * impersonation, dropping a pooled transaction, dump and load. Each node's observations must be what the script
 * expects, and the two must agree. Both are real processes on loopback ports.
 */
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  keccak256,
  pad,
  parseEther,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilNode, startAnvil } from '../helpers/anvil-node.js';
import { startNode, type NodeProcess } from '../helpers/node-process.js';

/** Dev account 0 of the well-known mnemonic: both nodes hold its key. */
const FUNDED: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** Keyless on both nodes: reached only through anvil_setBalance and impersonation. */
const ALICE: Address = '0x1111111111111111111111111111111111111111';
const WHALE: Address = '0x2222222222222222222222222222222222222222';
const CONTRACT: Address = '0x3333333333333333333333333333333333333333';
const GAS_PRICE = 10_000_000_000n;

/** The script: what it observes, as plain JSON values. */
async function script(url: string): Promise<Record<string, unknown>> {
  const chain = defineChain({
    id: 1337,
    name: 'dev',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const transport = http(url);
  const test = createTestClient({ chain, mode: 'anvil', transport });
  const pub = createPublicClient({ chain, transport, cacheTime: 0 });
  const wallet = createWalletClient({ chain, transport });
  const head = () => pub.getBlock({ blockTag: 'latest' });
  const send = (from: Address, to: Address, value: bigint) =>
    wallet.sendTransaction({ account: from, chain, to, value, gas: 21_000n, gasPrice: GAS_PRICE, type: 'legacy' });
  const out: Record<string, unknown> = {};

  // Edits change the head's state in place: the block number and the head's header stay as they were.
  const beforeEdits = await head();
  await test.setBalance({ address: ALICE, value: parseEther('5') });
  await test.setCode({ address: CONTRACT, bytecode: '0x602a60005260206000f3' });
  await test.setStorageAt({ address: CONTRACT, index: 1, value: pad('0x2a') });
  await test.setNonce({ address: ALICE, nonce: 7 });
  const afterEdits = await head();
  out.editsInPlace = {
    sameNumber: afterEdits.number === beforeEdits.number,
    sameHead: afterEdits.hash === beforeEdits.hash,
  };
  out.edits = {
    balance: String(await pub.getBalance({ address: ALICE })),
    code: await pub.getCode({ address: CONTRACT }),
    slot: await pub.getStorageAt({ address: CONTRACT, slot: '0x1' }),
    nonce: await pub.getTransactionCount({ address: ALICE }),
    call: (await pub.call({ to: CONTRACT })).data,
  };

  const n0 = await pub.getBlockNumber();
  await test.mine({ blocks: 3 });
  out.mined = Number((await pub.getBlockNumber()) - n0);
  // The mined blocks' state root carries the edits: a proof of them leads from it.
  const minedHead = await head();
  const proof = await pub.getProof({ address: ALICE, storageKeys: [], blockNumber: minedHead.number });
  out.editsInRoot = {
    balance: String(proof.balance),
    nonce: proof.nonce,
    fromHeadRoot: keccak256(proof.accountProof[0]) === minedHead.stateRoot,
  };

  const t0 = (await head()).timestamp;
  await test.increaseTime({ seconds: 3600 });
  await test.mine({ blocks: 1 });
  out.timeJumped = (await head()).timestamp - t0 >= 3600n;
  const exact = (await head()).timestamp + 1000n;
  await test.setNextBlockTimestamp({ timestamp: exact });
  await test.mine({ blocks: 1 });
  out.exactTimestamp = (await head()).timestamp === exact;
  out.pastTimestampRefused = await test.setNextBlockTimestamp({ timestamp: 1n }).then(
    () => false,
    () => true,
  );
  // A fixed step between blocks, then back to the clock (which the increase above has put an hour ahead).
  await test.setBlockTimestampInterval({ interval: 7 });
  await test.mine({ blocks: 1 });
  const stepped = (await head()).timestamp;
  await test.mine({ blocks: 1 });
  out.interval = {
    step: Number((await head()).timestamp - stepped),
    removed: await test.request({ method: 'anvil_removeBlockTimestampInterval' }),
    removedAgain: await test.request({ method: 'anvil_removeBlockTimestampInterval' }),
  };

  const revertsTo = (id: Hex) =>
    test.request({ method: 'evm_revert', params: [id] }).then(
      (reverted: unknown) => reverted === true,
      () => false,
    );
  const before = { n: await pub.getBlockNumber(), balance: await pub.getBalance({ address: ALICE }) };
  const outer = await test.snapshot();
  await test.setBalance({ address: ALICE, value: 1n });
  await test.mine({ blocks: 2 });
  const inner = await test.snapshot();
  await test.mine({ blocks: 1 });
  await test.revert({ id: outer });
  // An edit made after a snapshot, with no block since, is undone by its revert too.
  const unmined = await test.snapshot();
  await test.setBalance({ address: ALICE, value: 2n });
  const editedThen = await pub.getBalance({ address: ALICE });
  await test.revert({ id: unmined });
  out.revert = {
    headBack: (await pub.getBlockNumber()) === before.n,
    balanceBack: (await pub.getBalance({ address: ALICE })) === before.balance,
    unminedEditUndone: editedThen === 2n && (await pub.getBalance({ address: ALICE })) === before.balance,
    // Refused either way: svc-node answers false, Anvil false or "resource not found" for an id it gave out later.
    usedAgain: await revertsTo(outer),
    laterConsumed: await revertsTo(inner),
  };

  await test.setBalance({ address: WHALE, value: parseEther('10') });
  await test.impersonateAccount({ address: WHALE });
  const hash = await send(WHALE, ALICE, parseEther('1'));
  const receipt = await pub.waitForTransactionReceipt({ hash });
  out.impersonated = {
    status: receipt.status,
    from: receipt.from,
    whale: String(await pub.getBalance({ address: WHALE })),
    alice: String(await pub.getBalance({ address: ALICE })),
  };
  await test.stopImpersonatingAccount({ address: WHALE });
  out.stoppedRefused = await send(WHALE, ALICE, 1n).then(
    () => false,
    () => true,
  );

  await test.setAutomine(false);
  const pooled = await send(FUNDED, ALICE, 1n);
  await test.dropTransaction({ hash: pooled });
  await test.mine({ blocks: 1 });
  out.dropped = await pub.getTransactionReceipt({ hash: pooled }).then(
    () => false,
    () => true,
  );
  await test.setAutomine(true);

  // The next block takes the gas limit exactly (the ETC header rule would move it by under 1/1024 a block).
  await test.setBlockGasLimit({ gasLimit: 50_000_000n });
  await test.mine({ blocks: 2 });
  const gasLimited = await head();
  out.gasLimit = {
    head: String(gasLimited.gasLimit),
    parent: String((await pub.getBlock({ blockNumber: gasLimited.number - 1n })).gasLimit),
  };

  const dump: Hex = await test.dumpState();
  await test.setBalance({ address: ALICE, value: 0n });
  await test.setCode({ address: CONTRACT, bytecode: '0x' });
  await test.loadState({ state: dump });
  out.loaded = {
    balance: String(await pub.getBalance({ address: ALICE })),
    code: await pub.getCode({ address: CONTRACT }),
    slot: await pub.getStorageAt({ address: CONTRACT, slot: '0x1' }),
  };
  return out;
}

let node: NodeProcess | undefined;
let anvil: AnvilNode | undefined;
let anvilUrl = '';

beforeAll(async () => {
  [node, anvil] = await Promise.all([startNode({ args: ['--no-p2p'] }), startAnvil()]);
  anvilUrl = anvil.url.replace(/\/$/, '');
}, 60_000);

afterAll(async () => {
  await Promise.all([anvil?.stop(), node?.stop()]);
});

describe("viem's test client, the same script on svc-node and Anvil", () => {
  it('observes what the script expects on both, and the two agree', async () => {
    const ours = await script(node!.url);
    const theirs = await script(anvilUrl);
    expect(ours).toEqual({
      editsInPlace: { sameNumber: true, sameHead: true },
      edits: {
        balance: String(parseEther('5')),
        code: '0x602a60005260206000f3',
        slot: pad('0x2a'),
        nonce: 7,
        call: pad('0x2a'),
      },
      mined: 3,
      editsInRoot: { balance: String(parseEther('5')), nonce: 7, fromHeadRoot: true },
      timeJumped: true,
      exactTimestamp: true,
      pastTimestampRefused: true,
      interval: { step: 7, removed: true, removedAgain: false },
      revert: { headBack: true, balanceBack: true, unminedEditUndone: true, usedAgain: false, laterConsumed: false },
      impersonated: {
        status: 'success',
        from: WHALE,
        whale: String(parseEther('9') - 21_000n * GAS_PRICE),
        alice: String(parseEther('6')),
      },
      stoppedRefused: true,
      dropped: true,
      gasLimit: { head: '50000000', parent: '50000000' },
      loaded: { balance: String(parseEther('6')), code: '0x602a60005260206000f3', slot: pad('0x2a') },
    });
    expect(theirs).toEqual(ours);
  }, 120_000);
});
