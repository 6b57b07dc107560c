/**
 * viem's test client (`mode: 'anvil'`) drives one script, unchanged, against svc-node's dev chain and against Anvil
 * itself (same mnemonic, chain id 1337, hardfork berlin: no base fee, as on ETC): every test action viem has (state
 * edits, mining, time travel, snapshots, impersonation, unsigned sends, the pool's views, coinbase and price floor,
 * logging, dump and load, reset) and Anvil's anvil_addBalance, evm_mine_detailed, anvil_dealERC20 and
 * anvil_setERC20Allowance. Each node's observations must be what the script expects, and the two must agree. Both
 * are real processes on loopback ports.
 */
import {
  type Abi,
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
import { Token } from '../rpc/contracts.js';

/** Dev account 0 of the well-known mnemonic: both nodes hold its key. */
const FUNDED: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
/** Keyless on both nodes: reached only through anvil_setBalance and impersonation. */
const ALICE: Address = '0x1111111111111111111111111111111111111111';
const WHALE: Address = '0x2222222222222222222222222222222222222222';
const CONTRACT: Address = '0x3333333333333333333333333333333333333333';
const DAVE: Address = '0x4444444444444444444444444444444444444444';
const CAROL: Address = '0x5555555555555555555555555555555555555555';
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
  // Methods viem has no action for, and refusals compared by their JSON-RPC code.
  const raw = (method: string, params: unknown[] = []) =>
    (test.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });
  const codeOf = (work: Promise<unknown>) =>
    work.then(
      () => 'answered',
      (e: { walk: (f: (c: unknown) => boolean) => { code?: number } | null }) =>
        e.walk((c) => typeof (c as { code?: unknown }).code === 'number')?.code,
    );

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

  await test.setBalance({ address: DAVE, value: parseEther('5') });
  await raw('anvil_addBalance', [DAVE, '0x10']);
  out.addBalance = String(await pub.getBalance({ address: DAVE }));

  const n0 = await pub.getBlockNumber();
  await test.mine({ blocks: 3 });
  out.mined = Number((await pub.getBlockNumber()) - n0);
  await test.mine({ blocks: 2, interval: 10 });
  const spaced = await head();
  out.mineInterval = Number(spaced.timestamp - (await pub.getBlock({ blockNumber: spaced.number - 1n })).timestamp);
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

  // As any account, without its key or impersonation; legacy, as ETC sends.
  const whaleBefore = await pub.getBalance({ address: WHALE });
  const unsigned = await test.sendUnsignedTransaction({
    from: WHALE,
    to: DAVE,
    value: 5n,
    gas: 21_000n,
    gasPrice: GAS_PRICE,
  });
  const unsignedReceipt = await pub.waitForTransactionReceipt({ hash: unsigned });
  out.unsigned = {
    status: unsignedReceipt.status,
    from: unsignedReceipt.from,
    spent: String(whaleBefore - (await pub.getBalance({ address: WHALE }))),
  };

  const automineBefore = await test.getAutomine();
  await test.setAutomine(false);
  const pooled = await send(FUNDED, ALICE, 1n);
  const pooledHash = (content: unknown) =>
    (content as { pending: Record<string, Record<string, { hash: string }>> }).pending;
  const pending = Object.entries(pooledHash(await test.getTxpoolContent()));
  const inspected = Object.entries((await test.inspectTxpool()).pending);
  out.pool = {
    automine: [automineBefore, await test.getAutomine()],
    status: await test.getTxpoolStatus(),
    content: pending.map(([from, txs]) => [from.toLowerCase(), Object.values(txs).map((tx) => tx.hash === pooled)]),
    inspect: inspected.map(([from, txs]) => [from.toLowerCase(), Object.values(txs).map((t) => t.toLowerCase())]),
  };
  await test.dropTransaction({ hash: pooled });
  await test.mine({ blocks: 1 });
  out.dropped = await pub.getTransactionReceipt({ hash: pooled }).then(
    () => false,
    () => true,
  );
  // Mined on demand and answered with the blocks: the call to CONTRACT returns its 42 as the transaction's output.
  const call = await test.sendUnsignedTransaction({ from: WHALE, to: CONTRACT, gas: 50_000n, gasPrice: GAS_PRICE });
  type Detailed = { number: Hex; transactions: { hash: Hex; from: Hex; output: Hex }[] }[];
  const detailed = (await raw('evm_mine_detailed')) as Detailed;
  const empty = (await raw('anvil_mine_detailed')) as Detailed;
  out.mineDetailed = {
    blocks: [detailed.length, empty.length],
    newHead: BigInt(empty[0]!.number) === (await pub.getBlockNumber()),
    transactions: detailed[0]!.transactions.map((tx) => [tx.hash === call, tx.from.toLowerCase(), tx.output]),
    emptyTransactions: empty[0]!.transactions.length,
  };
  await test.setAutomine(true);

  // The coinbase of blocks to come, and a price floor that eth_gasPrice's suggestion keeps to (then lifted again).
  await test.setCoinbase({ address: CAROL });
  await test.mine({ blocks: 1 });
  const coinbase = (await head()).miner;
  await test.setMinGasPrice({ gasPrice: 3n * GAS_PRICE });
  const suggested = await pub.getGasPrice();
  await test.setMinGasPrice({ gasPrice: 0n });
  out.blockProduction = { coinbase: coinbase.toLowerCase(), suggested: String(suggested) };

  // An ERC-20 balance set in its storage slot, found through balanceOf; a contract that reads no slot is refused.
  const deploy = await wallet.deployContract({
    account: FUNDED,
    chain,
    abi: Token.abi as Abi,
    bytecode: Token.bytecode as Hex,
    args: [1000n],
    gasPrice: GAS_PRICE,
    type: 'legacy',
  });
  const token = (await pub.waitForTransactionReceipt({ hash: deploy })).contractAddress!;
  const tokenBalance = (who: Address) =>
    pub.readContract({ address: token, abi: Token.abi as Abi, functionName: 'balanceOf', args: [who] });
  await raw('anvil_dealERC20', [ALICE, token, '0x2a']);
  out.dealERC20 = {
    alice: String(await tokenBalance(ALICE)),
    deployer: String(await tokenBalance(FUNDED)),
    noSlotRefused: await raw('anvil_dealERC20', [ALICE, CONTRACT, '0x2a']).then(
      () => false,
      () => true,
    ),
  };

  // An allowance likewise: this contract's allowance(owner, spender) answers the slot named by the owner.
  const ALLOWANCES: Address = '0x6666666666666666666666666666666666666666';
  await test.setCode({ address: ALLOWANCES, bytecode: '0x6004355460005260206000f3' });
  await raw('anvil_setERC20Allowance', [ALICE, WHALE, ALLOWANCES, '0x7']);
  const word = (a: Address) => a.slice(2).toLowerCase().padStart(64, '0');
  out.allowance = (await pub.call({ to: ALLOWANCES, data: `0xdd62ed3e${word(ALICE)}${word(WHALE)}` })).data;

  // Answered by both; svc-node's log lines are checked in test/fork/fork.test.ts.
  await test.setLoggingEnabled(false);
  await test.setLoggingEnabled(true);
  await test.setIntervalMining({ interval: 0 });
  out.quiet = {
    // No base fee on either chain (ETC, and Anvil at berlin): refused as invalid params, not unknown.
    baseFee: await codeOf(test.setNextBlockBaseFeePerGas({ baseFeePerGas: 1n })),
    // Not a fork: nothing changes, as on Anvil (fork mode: test/fork/fork.test.ts).
    rpcUrl: await codeOf(test.setRpcUrl('http://127.0.0.1:9')),
    // viem's reset() sends blockNumber null and no URL: on a chain that is no fork, both need a URL.
    reset: await codeOf(test.reset()),
  };

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
  [node, anvil] = await Promise.all([startNode({ args: ['--no-p2p'] }), startAnvil({ hardfork: 'berlin' })]);
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
      addBalance: String(parseEther('5') + 16n),
      mined: 3,
      mineInterval: 10,
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
      unsigned: { status: 'success', from: WHALE, spent: String(5n + 21_000n * GAS_PRICE) },
      pool: {
        automine: [true, false],
        status: { pending: 1, queued: 0 },
        content: [[FUNDED.toLowerCase(), [true]]],
        inspect: [[FUNDED.toLowerCase(), [`${ALICE.toLowerCase()}: 1 wei + 21000 gas × ${GAS_PRICE} wei`]]],
      },
      dropped: true,
      mineDetailed: {
        blocks: [1, 1],
        newHead: true,
        transactions: [[true, WHALE.toLowerCase(), pad('0x2a')]],
        emptyTransactions: 0,
      },
      blockProduction: { coinbase: CAROL, suggested: String(3n * GAS_PRICE) },
      dealERC20: { alice: '42', deployer: '1000', noSlotRefused: true },
      allowance: pad('0x7'),
      quiet: { baseFee: -32602, rpcUrl: 'answered', reset: -32602 },
      gasLimit: { head: '50000000', parent: '50000000' },
      loaded: { balance: String(parseEther('6')), code: '0x602a60005260206000f3', slot: pad('0x2a') },
    });
    expect(theirs).toEqual(ours);
  }, 120_000);
});
