/**
 * Signed transactions for the benchmark: the ERC-20 from bench/contracts (deploy, transfer, balanceOf) and
 * plain value transfers, signed locally (legacy EIP-155 transactions, which every compared node accepts) so each
 * node only verifies, pools and executes. Signing happens before timing starts.
 */
import { readFileSync } from 'node:fs';
import { Interface, Wallet, getCreateAddress, id as eventTopic } from 'ethers';
import { type RpcClient, sleep } from './rpc.js';

const artifact = JSON.parse(readFileSync(new URL('../contracts/BenchToken.json', import.meta.url), 'utf8')) as {
  abi: unknown[];
  bytecode: string;
};
const tokenAbi = new Interface(artifact.abi as string[]);

export const TRANSFER_TOPIC = eventTopic('Transfer(address,address,uint256)');
/** High enough for every node's base fee through a 1,000-transaction burst; balances cover it many times. */
const GAS_PRICE = 20_000_000_000n;
const DEPLOY_GAS = 1_500_000n;
/** A transfer to a holder that already has a balance uses ~35k gas; the first one to a new holder ~52k. */
export const TRANSFER_GAS = 45_000n;
export const FIRST_TRANSFER_GAS = 80_000n;

export function balanceOfCall(token: string, holder: string): { to: string; data: string } {
  return { to: token, data: tokenAbi.encodeFunctionData('balanceOf', [holder]) };
}

export class Sender {
  private constructor(
    readonly rpc: RpcClient,
    private readonly wallet: Wallet,
    private readonly chainId: bigint,
    private nonce: number,
  ) {}

  static async open(rpc: RpcClient, privateKey: string): Promise<Sender> {
    const wallet = new Wallet(privateKey);
    const chainId = BigInt(await rpc.call<string>('eth_chainId'));
    const nonce = Number(await rpc.call<string>('eth_getTransactionCount', [wallet.address, 'latest']));
    return new Sender(rpc, wallet, chainId, nonce);
  }

  get address(): string {
    return this.wallet.address;
  }

  /** The nonce the next signed transaction gets (= the count once everything signed so far is mined). */
  get nextNonce(): number {
    return this.nonce;
  }

  private sign(fields: { to?: string; data?: string; value?: bigint; gasLimit: bigint }): Promise<string> {
    return this.wallet.signTransaction({
      type: 0,
      chainId: this.chainId,
      nonce: this.nonce++,
      gasPrice: GAS_PRICE,
      value: 0n,
      ...fields,
    });
  }

  /** Signs a deployment; returns the raw transaction and the address the contract will have. */
  async signDeploy(supply: bigint): Promise<{ raw: string; address: string }> {
    const address = getCreateAddress({ from: this.wallet.address, nonce: this.nonce });
    const data = artifact.bytecode + tokenAbi.encodeDeploy([supply]).slice(2);
    return { raw: await this.sign({ data, gasLimit: DEPLOY_GAS }), address };
  }

  signTokenTransfer(token: string, to: string, amount: bigint, gasLimit = TRANSFER_GAS): Promise<string> {
    return this.sign({ to: token, data: tokenAbi.encodeFunctionData('transfer', [to, amount]), gasLimit });
  }

  signValueTransfer(to: string): Promise<string> {
    return this.sign({ to, value: 1n, gasLimit: 21_000n });
  }

  send(raw: string): Promise<string> {
    return this.rpc.call<string>('eth_sendRawTransaction', [raw]);
  }

  async minedCount(): Promise<number> {
    return Number(await this.rpc.call<string>('eth_getTransactionCount', [this.wallet.address, 'latest']));
  }

  /** After a failed phase: forget transactions signed but never accepted, continue from the node's pending count. */
  async resync(): Promise<void> {
    this.nonce = Number(await this.rpc.call<string>('eth_getTransactionCount', [this.wallet.address, 'pending']));
  }

  /** Resolves once every transaction signed so far is in a block (the account's mined nonce caught up). */
  waitAllMined(timeoutMs = 120_000, pollMs = 2): Promise<void> {
    return this.waitMinedCount(this.nonce, timeoutMs, pollMs);
  }

  /** Resolves once `count` transactions of this account are in blocks (nonces 0..count-1). */
  async waitMinedCount(count: number, timeoutMs = 120_000, pollMs = 2): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while ((await this.minedCount()) < count) {
      if (performance.now() > deadline)
        throw new Error(
          `${this.address}: transactions up to nonce ${count - 1} not mined within ${timeoutMs / 1000} s`,
        );
      await sleep(pollMs);
    }
  }
}

/** Guards against measuring reverted transfers: the receipt must say success and carry the expected log count. */
export async function expectSuccess(rpc: RpcClient, hash: string, logs: number): Promise<void> {
  const receipt = await rpc.call<{ status?: string; logs: unknown[] } | null>('eth_getTransactionReceipt', [hash]);
  if (!receipt) throw new Error(`no receipt for mined transaction ${hash}`);
  if (receipt.status !== '0x1' || receipt.logs.length !== logs) {
    throw new Error(
      `transaction ${hash} status ${receipt.status} with ${receipt.logs.length} logs (expected success with ${logs})`,
    );
  }
}
