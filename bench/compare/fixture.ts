/**
 * The state every workload starts from, built the same way on each node: the benchmark ERC-20 deployed by the
 * first funded account, a balance for the holder whose `balanceOf` the reads query (that transfer's hash is the
 * receipt the reads fetch), and a first transfer to the write workloads' recipient so later transfers cost the
 * same steady-state gas everywhere.
 */
import { MethodUnavailable } from './rpc.js';
import { balanceOfCall, FIRST_TRANSFER_GAS, Sender } from './token.js';
import type { RunningTarget } from './launcher.js';

/** Test-mnemonic accounts #1 and #3 as plain addresses: receivers need no funds or keys. */
export const HOLDER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
export const RECIPIENT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
export const HOLDER_BALANCE = 10n ** 21n;

export interface Fixture {
  readonly sender: Sender;
  readonly token: string;
  readonly receiptHash: string;
  /**
   * Senders holding tokens for the burst (the first sender included). Pools cap transactions per sender
   * (svc-node at 256, like geth's account slots), so a burst of 1,000 is spread over several accounts.
   */
  readonly burstSenders: readonly Sender[];
}

/** Test-mnemonic accounts #2, #4 and #5 join #0 for bursts (#1 is the read holder, #3 the recipient). */
const BURST_KEY_INDEXES = [2, 4, 5];

export async function prepareFixture(node: RunningTarget): Promise<Fixture> {
  const keys = node.target.fundedKeys(node.logFile);
  const [key] = keys;
  if (!key) throw new Error(`no funded key found for ${node.target.name}`);
  const sender = await Sender.open(node.rpc, key);
  const deploy = await sender.signDeploy(10n ** 27n);
  const toHolder = await sender.signTokenTransfer(deploy.address, HOLDER, HOLDER_BALANCE, FIRST_TRANSFER_GAS);
  const toRecipient = await sender.signTokenTransfer(deploy.address, RECIPIENT, 1n, FIRST_TRANSFER_GAS);
  await sender.send(deploy.raw);
  const receiptHash = await sender.send(toHolder);
  await sender.send(toRecipient);
  const burstSenders = [sender];
  for (const index of BURST_KEY_INDEXES) {
    if (keys[index] === undefined) continue; // a node with one funded key (EthereumJS) runs no bursts
    const extra = await Sender.open(node.rpc, keys[index]);
    await sender.send(await sender.signTokenTransfer(deploy.address, extra.address, 10n ** 24n, FIRST_TRANSFER_GAS));
    burstSenders.push(extra);
  }
  // Nodes without automine (the EthereumJS client seals every ~10 s) need a couple of block intervals.
  await sender.waitAllMined(180_000, 20);
  await ignoringUnavailable(async () => {
    const code = await node.rpc.call<string>('eth_getCode', [deploy.address, 'latest']);
    if (code.length <= 2)
      throw new Error(`${node.target.name}: the token deployment left no code at ${deploy.address}`);
  });
  await ignoringUnavailable(async () => {
    const balance = await node.rpc.call<string>('eth_call', [balanceOfCall(deploy.address, HOLDER), 'latest']);
    if (BigInt(balance) !== HOLDER_BALANCE)
      throw new Error(`${node.target.name}: balanceOf(holder) = ${balance}, expected ${HOLDER_BALANCE}`);
  });
  return { sender, token: deploy.address, receiptHash, burstSenders };
}

/** A sanity check that needs a method the node may not serve yet: the reads report that method as n/a anyway. */
async function ignoringUnavailable(check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (err) {
    if (!(err instanceof MethodUnavailable)) throw err;
  }
}
